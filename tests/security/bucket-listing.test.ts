/**
 * Issue #26 item 9: a guest may list the images bucket (it grants `read("any")`, which Appwrite's list honours),
 * so its file names must tell nothing a guest may not read. Against the embedded server with the official
 * node-appwrite SDK: the admin's uploads and `studio push`'s are named after their ids, never an item's slug
 * or a local file name; files named before are renamed once by setup, their view URLs unchanged.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ID, Permission, Role } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuestServices, createSessionServices, fileViewUrl } from "../../lib/appwrite/client.ts";
import { applyContentSchema } from "../../lib/appwrite/content-schema.ts";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { checkImage } from "../../lib/images/upload.ts";
import { push } from "../../lib/publish/push.ts";
import { createItem, type VentureInput } from "../../server/admin/content.ts";
import { register } from "../../server/auth/account.ts";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { copyFixtureContent, FIXTURE_CONTENT, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let png: Buffer;
beforeAll(async () => {
  backend = await startBackend();
  png = await readFile(path.join(FIXTURE_CONTENT, "images/alpha-logo.png"));
});
afterAll(async () => backend?.close());

/** The bucket as a guest lists it: id and name of every file. */
async function guestListing() {
  const page = await createGuestServices(backend.emulator).storage.listFiles({ bucketId: IMAGES_BUCKET_ID });
  return page.files.map((f) => ({ id: f.$id, name: f.name }));
}

describe("names in the images bucket (issue #26 item 9)", () => {
  it("names the admin's upload for an unpublished item after its id: a guest's listing shows no slug", async () => {
    const ada = await register(
      backend.services,
      { name: "ada", email: "ada-bucket@example.com", password: "correct horse battery staple" },
      { openRegistration: true },
    );
    const secret: VentureInput = {
      name: "Unannounced",
      slug: "unannounced-acquisition-2027",
      websiteURL: "https://unannounced.example",
      shortDescription: "Not public yet.",
      caseStudy: "<p>Not public yet.</p>",
    };
    const draft = await createItem(
      backend.emulator,
      createSessionServices(backend.emulator, ada.secret),
      ada.user,
      "venture",
      secret,
      await checkImage(png),
      { intent: "save" },
    );
    expect(draft.status).toBe("draft");

    const listed = await guestListing();
    expect(listed).toHaveLength(1);
    expect(listed[0]!.name).toBe(`${listed[0]!.id}.png`);
    expect(JSON.stringify(listed)).not.toContain("unannounced");
  });

  it("names studio push's uploads after their content-addressed ids, not the local files", async () => {
    const contentDir = await copyFixtureContent();
    expect((await push(backend.services, { contentDir })).failed).toBe(0);
    const pushed = (await guestListing()).filter((f) => f.id.startsWith("img-"));
    expect(pushed.length).toBeGreaterThan(0);
    for (const file of pushed) expect(file.name).toMatch(new RegExp(`^${file.id}\\.(png|jpg|jpeg|gif|webp)$`));
    expect(JSON.stringify(pushed)).not.toMatch(/alpha|hello|logo|cover/);
  });

  it("given files named before, setup renames them after their ids once, and their view URLs still serve them", async () => {
    const { storage } = backend.services;
    const named = async (name: string) =>
      storage.createFile({
        bucketId: IMAGES_BUCKET_ID,
        fileId: ID.unique(),
        file: InputFile.fromBuffer(png, name),
        permissions: [Permission.read(Role.any())],
      });
    const old = [await named("secret-launch.png"), await named("Secret-Launch-Cover.PNG")];

    const changes = await applyContentSchema(backend.services, schema as AppwriteSchema);
    expect(changes).toEqual([`renamed 2 image file(s) of ${IMAGES_BUCKET_ID} after their ids`]);
    expect(await applyContentSchema(backend.services, schema as AppwriteSchema)).toEqual([]);

    const listed = await guestListing();
    expect(JSON.stringify(listed)).not.toMatch(/secret|launch/i);
    for (const file of old) {
      expect(listed.find((f) => f.id === file.$id)?.name).toMatch(new RegExp(`^${file.$id}\\.png$`, "i"));
      const served = await fetch(fileViewUrl(backend.emulator, IMAGES_BUCKET_ID, file.$id));
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
    }
  });
});
