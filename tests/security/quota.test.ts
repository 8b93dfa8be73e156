/**
 * SECURITY C36 (P): at most 200 files or 500 MB of uploads per user. The admin's writes check the user's
 * files (those whose permissions name the user) before uploading; over the quota, nothing is stored and the
 * form says so in the admin's language. Limits are passed as an option, so small ones are tested too. Users
 * cannot upload around it straight to the bucket: `rest-uploads.test.ts` (C61).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ID, Query } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, updateItem, type VentureInput } from "../../server/admin/content.ts";
import { imagePermissions } from "../../server/admin/images.ts";
import { QuotaExceededError, UPLOAD_QUOTA } from "../../server/admin/quota.ts";
import { createSessionServices } from "../../lib/appwrite/client.ts";
import { register, type NewSession } from "../../server/auth/account.ts";
import { checkImage, type CheckedImage } from "../../lib/images/upload.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { FIXTURE_CONTENT } from "../helpers/fixtures.ts";
import { startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let stack: SiteStack;
let logo: CheckedImage;
beforeAll(async () => {
  stack = await startSiteStack();
  logo = await checkImage(await readFile(path.join(FIXTURE_CONTENT, "images/alpha-logo.png")));
});
afterAll(async () => stack.close());

const venture = (slug: string): VentureInput => ({
  name: `Venture ${slug}`,
  slug,
  websiteURL: "https://example.com",
  shortDescription: "Short.",
  caseStudy: "<h2>The Problem</h2><p>Text.</p>",
});
const fileCount = async () => (await stack.backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).total;
async function findVenture(slug: string) {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.venture.collectionId,
    queries: [Query.equal("slug", slug)],
  });
  return page.documents[0];
}
async function user(email: string): Promise<NewSession> {
  return register(
    stack.backend.services,
    { name: email.split("@")[0]!, email, password: "correct horse battery" },
    { openRegistration: true },
  );
}
function create(who: NewSession, slug: string, quota: { files: number; bytes: number }) {
  const session = createSessionServices(stack.backend.emulator, who.secret);
  return createItem(stack.backend.emulator, session, who.user, "venture", venture(slug), logo, { quota });
}

describe("upload quota per user (C36)", () => {
  it("refuses the upload past the file limit and stores nothing; other users and replaced images do not count", async () => {
    const quota = { files: 2, bytes: 100 * 1024 * 1024 };
    const ada = await user("quota-ada@example.com");
    const bob = await user("quota-bob@example.com");
    const first = await create(ada, "ada-one", quota);
    await create(ada, "ada-two", quota);
    const before = await fileCount();

    const refused = await create(ada, "ada-three", quota).catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(refused).toMatchObject({ limit: "files", usage: { files: 2 } });
    expect((refused as Error).message).toMatch(/upload limit \(2 images or 100 MB\); delete images you no longer use/);
    expect(await fileCount()).toBe(before);
    expect(await findVenture("ada-three")).toBeUndefined();

    await expect(create(bob, "bob-one", quota)).resolves.toMatchObject({ slug: "bob-one" });
    // Replacing an image keeps the count: the old one does not count against the new one.
    const session = createSessionServices(stack.backend.emulator, ada.secret);
    const updated = await updateItem(
      stack.backend.emulator,
      session,
      ada.user,
      "venture",
      first.$id,
      venture("ada-one"),
      logo,
      { quota },
    );
    expect(updated.logoUrl).not.toBe(first.logoUrl);
  });

  it("refuses the upload past the byte limit", async () => {
    const ada = await user("bytes-ada@example.com");
    const quota = { files: 100, bytes: Math.floor(logo.bytes.byteLength * 1.5) };
    await create(ada, "bytes-one", quota);

    const refused = await create(ada, "bytes-two", quota).catch((e: unknown) => e);

    expect(refused).toMatchObject({ name: "QuotaExceededError", limit: "bytes" });
    expect(await findVenture("bytes-two")).toBeUndefined();
  });

  it(
    "with the product limit of 200 files, the admin form refuses the 201st with a message in English or Arabic",
    { timeout: 120_000 },
    async () => {
      expect(UPLOAD_QUOTA).toEqual({ files: 200, bytes: 500 * 1024 * 1024 });
      const email = "full@example.com";
      const { $id: userId } = await stack.backend.services.users.create({
        userId: ID.unique(),
        email,
        password: "correct horse battery",
      });
      // 200 files the user owns (as the admin's uploads are), put there directly with the API key.
      const tiny = await readFile(path.join(FIXTURE_CONTENT, "images/hello-cover.png"));
      for (let batch = 0; batch < 20; batch++) {
        await Promise.all(
          Array.from({ length: 10 }, () =>
            stack.backend.services.storage.createFile({
              bucketId: IMAGES_BUCKET_ID,
              fileId: ID.unique(),
              file: InputFile.fromBuffer(tiny, "old.png"),
              permissions: imagePermissions(userId),
            }),
          ),
        );
      }
      const before = await fileCount();
      const admin = new Visitor(stack.site.url);
      expect((await admin.login(email)).status).toBe(302);
      const form = () => {
        const data = new FormData();
        for (const [k, v] of Object.entries(venture("over-quota"))) data.set(k, v);
        data.set("logo", new Blob([new Uint8Array(logo.bytes)]), "logo.png");
        return data;
      };

      const english = await admin.request("/admin/ventures/new", { method: "POST", form: form() });
      const arabic = await admin.request("/admin/ventures/new", {
        method: "POST",
        form: form(),
        headers: { Cookie: `${admin.cookie}; locale=ar` },
      });

      expect(english.status).toBe(400);
      expect(english.text).toContain("You have reached your upload limit (200 images or 500 MB).");
      expect(arabic.status).toBe(400);
      expect(arabic.text).toContain("لقد بلغت حدّ الرفع المسموح به (200 صورة أو 500 ميغابايت)");
      expect(await fileCount()).toBe(before);
      expect(await findVenture("over-quota")).toBeUndefined();
    },
  );
});
