/**
 * SECURITY C61: uploads through the REST API, against the embedded server with the official node-appwrite SDK.
 * (a) A file's MIME type comes from its content, as Appwrite's libmagic decides it, never from its name: HTML
 * or SVG named `.png` is not `image/png`, and is never served as an active type. (b) The images bucket lets
 * no user create files, so the admin's quota (C36) cannot be bypassed by uploading straight to it: the site
 * uploads with its API key after the quota check, and the user owns the file (delete only, so they cannot
 * take it out of their quota by rewriting its permissions).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { AppwriteException, ID, Permission, Role } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createItem, deleteItem, updateItem, type VentureInput } from "../../server/admin/content.ts";
import { imagePermissions } from "../../server/admin/images.ts";
import { uploadUsage } from "../../server/admin/quota.ts";
import { createSessionServices, parseFileViewUrl } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { register, type NewSession } from "../../server/auth/account.ts";
import { checkImage } from "../../lib/images/upload.ts";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { FIXTURE_CONTENT, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let png: Buffer;
beforeAll(async () => {
  backend = await startBackend();
  png = await readFile(path.join(FIXTURE_CONTENT, "images/alpha-logo.png"));
});
afterAll(async () => backend.close());

const HTML = Buffer.from("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>");
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
const XML_SVG = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>');

async function upload(bytes: Buffer, name: string) {
  return backend.services.storage.createFile({
    bucketId: IMAGES_BUCKET_ID,
    fileId: ID.unique(),
    file: InputFile.fromBuffer(bytes, name),
    permissions: [Permission.read(Role.any())],
  });
}
async function rejection(promise: Promise<unknown>): Promise<AppwriteException> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppwriteException);
  return error as AppwriteException;
}
async function serve(fileId: string, kind: "view" | "download"): Promise<Response> {
  const { endpoint, projectId } = backend.emulator;
  return fetch(`${endpoint}/storage/buckets/${IMAGES_BUCKET_ID}/files/${fileId}/${kind}?project=${projectId}`);
}
const fileCount = async () => (await backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).total;

describe("MIME type by content (C61 a)", () => {
  it.each([
    ["HTML", HTML, "text/html"],
    ["SVG", SVG, "image/svg+xml"],
    ["SVG with an XML declaration", XML_SVG, "image/svg+xml"],
  ])("stores %s named .png with its real type, and serves it only as text/plain", async (_, bytes, type) => {
    const file = await upload(bytes, "x.png");

    expect(file.mimeType).toBe(type);
    expect((await backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: file.$id })).mimeType).toBe(
      type,
    );
    for (const kind of ["view", "download"] as const) {
      const response = await serve(file.$id, kind);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/plain");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toContain("script-src 'none'");
      expect(response.headers.get("content-disposition")).toMatch(kind === "view" ? /^inline;/ : /^attachment;/);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    }
  });

  it("stores a real PNG as image/png and serves it as image/png", async () => {
    const file = await upload(png, "logo.png");

    expect(file.mimeType).toBe("image/png");
    const view = await serve(file.$id, "view");
    expect(view.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await view.arrayBuffer())).toEqual(png);
  });

  it("stores plain text named .png as text/plain and bytes of no known format as application/octet-stream", async () => {
    expect((await upload(Buffer.from("just words"), "x.png")).mimeType).toBe("text/plain");
    expect((await upload(Buffer.from([0, 1, 2, 3, 0xfe, 0x10, 0x00]), "x.png")).mimeType).toBe(
      "application/octet-stream",
    );
  });

  it("still checks the bucket's allowed extensions on the name: a real PNG named .html is refused", async () => {
    const before = await fileCount();
    const error = await rejection(upload(png, "logo.html"));

    expect([error.code, error.type, error.message]).toEqual([
      400,
      "storage_file_type_unsupported",
      "File extension not allowed",
    ]);
    expect(await fileCount()).toBe(before);
  });
});

const venture = (slug: string): VentureInput => ({
  name: `Venture ${slug}`,
  slug,
  websiteURL: "https://example.com",
  shortDescription: "Short.",
  caseStudy: "<p>Text.</p>",
});

describe("images reach the bucket only through the admin (C61 b)", () => {
  let ada: NewSession;
  let bob: NewSession;
  beforeAll(async () => {
    const user = (email: string) =>
      register(
        backend.services,
        { name: email.split("@")[0]!, email, password: "correct horse battery" },
        { openRegistration: true },
      );
    ada = await user("rest-ada@example.com");
    bob = await user("rest-bob@example.com");
  });

  it("refuses a signed-in user's own createFile to the images bucket with 401 user_unauthorized, storing nothing", async () => {
    const session = createSessionServices(backend.emulator, ada.secret);
    const before = await fileCount();

    for (const permissions of [undefined, [Permission.read(Role.any())]]) {
      const error = await rejection(
        session.storage.createFile({
          bucketId: IMAGES_BUCKET_ID,
          fileId: ID.unique(),
          file: InputFile.fromBuffer(png, "mine.png"),
          permissions,
        }),
      );
      expect([error.code, error.type]).toEqual([401, "user_unauthorized"]);
    }
    expect(await fileCount()).toBe(before);
    const bucket = await backend.services.storage.getBucket({ bucketId: IMAGES_BUCKET_ID });
    expect(bucket.$permissions).toEqual([Permission.read(Role.any())]);
    expect(bucket.fileSecurity).toBe(true);
  });

  it("uploads the admin's image with the API key, owned by the user, counted in their quota and not changeable by them", async () => {
    const session = createSessionServices(backend.emulator, ada.secret);
    const before = await uploadUsage(session.storage, ada.user.id);

    const created = await createItem(
      backend.emulator,
      session,
      ada.user,
      "venture",
      venture("rest-ada"),
      await checkImage(png),
    );

    const fileId = parseFileViewUrl(String(created.logoUrl))!.fileId;
    const file = await backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId });
    expect(file.$permissions.sort()).toEqual(imagePermissions(ada.user.id).sort());
    expect(file.mimeType).toBe("image/png");
    expect(await uploadUsage(session.storage, ada.user.id)).toEqual({
      files: before.files + 1,
      bytes: before.bytes + png.byteLength,
    });
    // The user cannot rewrite the file's permissions (and so drop it from their quota), nor rename it.
    const strip = await rejection(
      session.storage.updateFile({ bucketId: IMAGES_BUCKET_ID, fileId, permissions: [Permission.read(Role.any())] }),
    );
    expect([strip.code, strip.type]).toEqual([401, "user_unauthorized"]);
    expect(await uploadUsage(session.storage, ada.user.id)).toEqual({
      files: before.files + 1,
      bytes: before.bytes + png.byteLength,
    });
    // Another user may not delete it.
    const bobSession = createSessionServices(backend.emulator, bob.secret);
    const refused = await rejection(bobSession.storage.deleteFile({ bucketId: IMAGES_BUCKET_ID, fileId }));
    expect([refused.code, refused.type]).toEqual([401, "user_unauthorized"]);
  });

  it("lets the user replace and delete their image through the admin", async () => {
    const session = createSessionServices(backend.emulator, ada.secret);
    const created = await createItem(
      backend.emulator,
      session,
      ada.user,
      "venture",
      venture("rest-replace"),
      await checkImage(png),
    );
    const first = parseFileViewUrl(String(created.logoUrl))!.fileId;

    const updated = await updateItem(
      backend.emulator,
      session,
      ada.user,
      "venture",
      created.$id,
      venture("rest-replace"),
      await checkImage(png),
    );
    const second = parseFileViewUrl(String(updated.logoUrl))!.fileId;
    expect(second).not.toBe(first);
    await expect(backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: first })).rejects.toMatchObject(
      {
        code: 404,
      },
    );
    expect(
      (await backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: second })).$permissions,
    ).toEqual(expect.arrayContaining([Permission.delete(Role.user(ada.user.id))]));

    await deleteItem(session, ada.user, "venture", created.$id);
    await expect(
      backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: second }),
    ).rejects.toMatchObject({ code: 404 });
  });

  it("given an installation whose bucket still lets users create files, setup removes it once", async () => {
    const { storage } = backend.services;
    const bucket = await storage.getBucket({ bucketId: IMAGES_BUCKET_ID });
    await storage.updateBucket({
      bucketId: IMAGES_BUCKET_ID,
      name: bucket.name,
      permissions: [Permission.read(Role.any()), Permission.create(Role.users())],
      fileSecurity: bucket.fileSecurity,
      enabled: bucket.enabled,
      maximumFileSize: bucket.maximumFileSize,
      allowedFileExtensions: bucket.allowedFileExtensions,
    });

    expect(await applySchema(backend.services, schema as AppwriteSchema)).toEqual([
      `updated bucket ${IMAGES_BUCKET_ID}`,
    ]);
    expect(await applySchema(backend.services, schema as AppwriteSchema)).toEqual([]);
    const migrated = await storage.getBucket({ bucketId: IMAGES_BUCKET_ID });
    expect(migrated.$permissions).toEqual([Permission.read(Role.any())]);
    expect(migrated).toMatchObject({ fileSecurity: true, maximumFileSize: bucket.maximumFileSize });
  });
});
