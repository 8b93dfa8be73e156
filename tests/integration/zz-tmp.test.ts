import { ID, Query } from "node-appwrite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { SUBMISSION_MODEL } from "../../model/site-models.ts";
import { startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";
let stack: SiteStack;
beforeAll(async () => { stack = await startSiteStack(); });
afterAll(async () => { await stack?.close(); });
const P = "correct horse battery staple 42";
it("probe", async () => {
  for (const n of ["o", "s"]) await stack.backend.services.users.create({ userId: ID.unique(), email: `${n}@studio.test`, password: P, name: n });
  expect((await new Visitor(stack.site.url).login("o@studio.test", P)).status).toBe(302);
  const v = new Visitor(stack.site.url);
  expect((await v.login("s@studio.test", P)).status).toBe(302);
  await new Visitor(stack.site.url).request("/en/contact", { method: "POST", form: { name: "Dana", email: "dana@visitor.test", message: "Hello team" } });
  const { rows } = await stack.backend.services.tablesDB.listRows({ databaseId: DATABASE_ID, tableId: SUBMISSION_MODEL.contactMessage.collectionId, queries: [Query.limit(1)] });
  const id = rows[0]!.$id;
  { const r = await v.request(`/admin/inbox/contactMessage/${id}`, { method: "POST", form: { intent: "delete" } }); console.log("POST", r.status, r.text.includes("admin.nav.dashboard"), (r.text.match(/<main[\s\S]*?<\/main>/) ?? [""])[0]); }
  for (const p of [`/admin/inbox/contactMessage/${id}`, `/admin/inbox/contactMessage/${id}.data`, "/admin/inbox/events"]) {
    const r = await v.request(p);
    console.log(p, r.status, r.text.includes("admin.nav.dashboard"), r.text.slice(0, 300).replace(/\s+/g, " "));
  }
});
