/**
 * `studio inbox` (issue #31 item 4) and the inbox's migration: `--json --state new` lists, `export --csv`
 * exports (UTF-8 with BOM, read back with csv-parse), with the API key or a studio member's session in
 * APPWRITE_SESSION, and never with a stranger's session (SECURITY C65). `studio setup` gives rows from before
 * the inbox the state `new` and the team's permissions.
 */
import { parse } from "csv-parse/sync";
import { ID, Teams } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyContentSchema } from "../../lib/appwrite/content-schema.ts";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { createSubmission, SUBMISSION_PERMISSIONS } from "../../lib/appwrite/submissions.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { DATABASE_ID } from "../../model/content.ts";
import { SUBMISSION_MODEL } from "../../model/site-models.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import { startBackend, type Backend } from "../helpers/stack.ts";
import { studio as runStudio } from "../helpers/studio.ts";

let backend: Backend;
let memberSecret: string;
let strangerSecret: string;
const CONTACT = SUBMISSION_MODEL.contactMessage.collectionId;

/** `studio <args>` in this process against the test backend (tests/helpers/studio.ts), with `env` added. */
const studio = (args: string[], env: NodeJS.ProcessEnv = {}) => runStudio(args, backend.emulator, env);

beforeAll(async () => {
  backend = await startBackend();
  const { users, tablesDB, client } = backend.services;
  const member = await users.create({ userId: ID.unique(), email: "editor@studio.test", name: "Editor" });
  const stranger = await users.create({ userId: ID.unique(), email: "stranger@studio.test", name: "Stranger" });
  const teams = new Teams(client);
  await teams.create({ teamId: STUDIO_TEAM_ID, name: "Studio" });
  await teams.createMembership({ teamId: STUDIO_TEAM_ID, roles: ["editor"], userId: member.$id });
  memberSecret = (await users.createSession({ userId: member.$id })).secret;
  strangerSecret = (await users.createSession({ userId: stranger.$id })).secret;
  // A row from before the inbox: no state, no locale, no permissions.
  await tablesDB.createRow({
    databaseId: DATABASE_ID,
    tableId: CONTACT,
    rowId: "old-row",
    data: { name: "Old", email: "old@visitor.test", message: "From before the inbox" },
    permissions: [],
  });
  await createSubmission(
    backend.services,
    "contactMessage",
    { name: "ليلى", email: "layla@visitor.test", message: "مرحبا" },
    "ar",
  );
  await createSubmission(
    backend.services,
    "communityApplication",
    { name: "Sam", email: "sam@visitor.test", projectIdea: "=cmd" },
    "en",
  );
});
afterAll(async () => backend.close());

describe("the inbox's migration", () => {
  it("gives rows from before the inbox the state new and the team's permissions, once", async () => {
    const changes = await applyContentSchema(backend.services, schema as AppwriteSchema);
    expect(changes).toContain(`gave 1 submission(s) of ${CONTACT} the state "new" and the team's permissions`);
    const row = await backend.services.tablesDB.getRow({ databaseId: DATABASE_ID, tableId: CONTACT, rowId: "old-row" });
    expect(row).toMatchObject({ state: "new", locale: "en" });
    expect([...row.$permissions].sort()).toEqual([...SUBMISSION_PERMISSIONS].sort());
    expect(await applyContentSchema(backend.services, schema as AppwriteSchema)).toEqual([]);
  });
});

describe("studio inbox", () => {
  it("lists new items newest first as NDJSON with the API key", async () => {
    const run = await studio(["inbox", "--json", "--state", "new"]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const items = lines.filter((l) => l["type"] === "submission");
    expect(items.map((i) => i["name"])).toEqual(["Sam", "ليلى", "Old"]);
    expect(items[1]).toMatchObject({ kind: "contactMessage", locale: "ar", text: "مرحبا", state: "new" });
    expect(lines.at(-1)).toMatchObject({ type: "result", count: 3, unread: 3 });
  });

  it("exports CSV with a BOM, Arabic intact, through a member's session", async () => {
    const run = await studio(["inbox", "export", "--csv", "--kind", "contactMessage"], {
      APPWRITE_SESSION: memberSecret,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.charCodeAt(0)).toBe(0xfeff);
    const rows = parse(run.stdout, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r["name"], r["text"], r["language"]])).toEqual([
      ["ليلى", "مرحبا", "ar"],
      ["Old", "From before the inbox", "en"],
    ]);
  });

  it("refuses a stranger's session (exit 3) and shows them nothing", async () => {
    const run = await studio(["inbox", "--json"], { APPWRITE_SESSION: strangerSecret });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("stranger@studio.test is not a member of the studio team");
    expect(run.stdout).not.toContain("layla");
  });

  it("refuses an unknown state with a usage error saying what is accepted", async () => {
    const run = await studio(["inbox", "--state", "unread"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("expected new, read, replied, archived or spam");
  });
});
