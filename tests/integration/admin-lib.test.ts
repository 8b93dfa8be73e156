import { readFile } from "node:fs/promises";
import path from "node:path";
import { AppwriteException, Query } from "node-appwrite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AUTHORIZATION_ERROR,
  createItem,
  deleteItem,
  submissionErrorMessage,
  updateItem,
  type VentureInput,
} from "../../server/admin/content.ts";
import { createSessionServices, parseFileViewUrl } from "../../lib/appwrite/client.ts";
import {
  AccountUpdateError,
  currentUser,
  InvalidCredentialsError,
  register,
  RegistrationError,
  signIn,
  signOut,
  updateName,
  updatePassword,
  type NewSession,
} from "../../server/auth/account.ts";
import { checkImage, ImageRejectedError } from "../../lib/images/upload.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { FIXTURE_CONTENT, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

const PASSWORD = "correct horse battery staple";
const venture = (slug: string): VentureInput => ({
  name: "Alpha",
  slug,
  websiteURL: "https://alpha.example",
  shortDescription: "A venture.",
  caseStudy: "<h2>The Problem</h2><p onclick=x()>Text</p><script>alert(1)</script>",
});
const logo = async () => checkImage(await readFile(path.join(FIXTURE_CONTENT, "images/alpha-logo.png")));
const fileCount = async () => (await backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).total;

/** `who` creates a venture with the fixture logo through their own session. */
async function createVentureWithLogo(who: NewSession, slug: string) {
  return createItem(
    backend.emulator,
    createSessionServices(backend.emulator, who.secret),
    who.user,
    "venture",
    venture(slug),
    await logo(),
  );
}

async function signedIn(email: string): Promise<NewSession> {
  return register(
    backend.services,
    { name: email.split("@")[0]!, email, password: PASSWORD },
    { openRegistration: true },
  );
}

describe("authentication (SSR pattern)", () => {
  it("registers, signs in with a session secret, knows the user, and signs out for good", async () => {
    const session = await signedIn("ada@example.com");
    expect(session.secret).not.toBe("");
    expect(session.user).toMatchObject({ name: "ada", email: "ada@example.com" });
    expect(await currentUser(backend.emulator, session.secret)).toEqual(session.user);

    const again = await signIn(backend.services, "ADA@example.com", PASSWORD);
    expect(again.secret).not.toBe(session.secret); // a fresh token per login (SECURITY C4)

    await signOut(backend.emulator, session.secret);
    expect(await currentUser(backend.emulator, session.secret)).toBeNull(); // C5
    expect(await currentUser(backend.emulator, again.secret)).not.toBeNull();
  });

  it("answers a wrong password and an unknown e-mail with the same error", async () => {
    await signedIn("ada@example.com");
    const wrong = await signIn(backend.services, "ada@example.com", "wrong password!").catch((e: unknown) => e);
    const unknown = await signIn(backend.services, "nobody@example.com", PASSWORD).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(InvalidCredentialsError);
    expect(unknown).toBeInstanceOf(InvalidCredentialsError);
    expect((wrong as Error).message).toBe("Authentication failed. Please check your credentials.");
    expect((unknown as Error).message).toBe((wrong as Error).message);
  });

  it("requires a name and a long enough password, refuses a taken e-mail, and can be closed after the first account", async () => {
    await expect(
      register(backend.services, { name: " ", email: "a@example.com", password: PASSWORD }, { openRegistration: true }),
    ).rejects.toThrow("Name is required for registration.");
    await expect(
      register(backend.services, { name: "A", email: "a@example.com", password: "short" }, { openRegistration: true }),
    ).rejects.toThrow(/8 to 256 characters/);
    await signedIn("owner@example.com");
    await expect(signedIn("owner@example.com")).rejects.toBeInstanceOf(RegistrationError);
    await expect(
      register(
        backend.services,
        { name: "B", email: "b@example.com", password: PASSWORD },
        { openRegistration: false },
      ),
    ).rejects.toThrow(/Registration is closed/);
  });

  it("updates the name and the password with the spec's rules and messages", async () => {
    const session = await signedIn("ada@example.com");
    expect((await updateName(backend.emulator, session.secret, "Ada Lovelace")).name).toBe("Ada Lovelace");
    await expect(updateName(backend.emulator, session.secret, " ")).rejects.toBeInstanceOf(AccountUpdateError);

    const change = (current: string, next: string, confirm = next) =>
      updatePassword(backend.emulator, session.secret, { current, next, confirm });
    await expect(change("", "a new password")).rejects.toThrow("Current password is required to change your password.");
    await expect(change(PASSWORD, "a new password", "another one")).rejects.toThrow("New passwords do not match.");
    await expect(change("not my password", "a new password")).rejects.toThrow(/^Failed to update password/);
    await change(PASSWORD, "a new password");
    await expect(signIn(backend.services, "ada@example.com", PASSWORD)).rejects.toBeInstanceOf(InvalidCredentialsError);
    expect((await signIn(backend.services, "ada@example.com", "a new password")).user.email).toBe("ada@example.com");
  });
});

describe("admin writes with the user's session", () => {
  it("creates a venture readable by anyone and changeable by its creator and the studio team only, with its logo and sanitized HTML", async () => {
    const ada = await signedIn("ada@example.com");
    const created = await createVentureWithLogo(ada, "alpha");

    // Decision 0017: the studio team's roles are completed with the key when the user may not grant them.
    expect(created.$permissions.sort()).toEqual(
      [
        `delete("user:${ada.user.id}")`,
        'read("any")',
        `update("user:${ada.user.id}")`,
        'update("team:studio")',
        'delete("team:studio")',
      ].sort(),
    );
    expect(created.userId).toBe(ada.user.id);
    expect(created.caseStudy).toBe("<h2>The Problem</h2><p>Text</p>");
    const file = parseFileViewUrl(String(created.logoUrl))!;
    const stored = await backend.services.storage.getFile({ bucketId: IMAGES_BUCKET_ID, fileId: file.fileId });
    expect(stored.name).toBe(`${file.fileId}.png`); // named after its id, never the slug (issue #26 item 9)
  });

  it("refuses a second user's update and delete with the spec's authorization text, changing nothing", async () => {
    const ada = await signedIn("ada@example.com");
    const bob = await signedIn("bob@example.com");
    const created = await createVentureWithLogo(ada, "alpha");
    const bobSession = createSessionServices(backend.emulator, bob.secret);

    const update = await updateItem(
      backend.emulator,
      bobSession,
      bob.user,
      "venture",
      created.$id,
      { ...venture("alpha"), name: "Hijacked" },
      null,
    ).catch((e: unknown) => e);
    const replace = await updateItem(
      backend.emulator,
      bobSession,
      bob.user,
      "venture",
      created.$id,
      venture("alpha"),
      await logo(),
    ).catch((e: unknown) => e);
    const remove = await deleteItem(bobSession, bob.user, "venture", created.$id).catch((e: unknown) => e);

    for (const error of [update, replace, remove]) {
      expect(error).toBeInstanceOf(AppwriteException);
      expect(submissionErrorMessage(error)).toBe(AUTHORIZATION_ERROR);
    }
    const after = await backend.services.databases.getDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.venture.collectionId,
      documentId: created.$id,
    });
    expect(after.name).toBe("Alpha");
    expect(after.logoUrl).toBe(created.logoUrl);
    expect(await fileCount()).toBe(1);
  });

  it("replaces an image by deleting the old file, and deletes a post's image with it", async () => {
    const ada = await signedIn("ada@example.com");
    const session = createSessionServices(backend.emulator, ada.secret);
    const post = {
      title: "Hello",
      slug: "hello",
      authorName: "Ada",
      publishedDate: "2026-03-14",
      excerpt: "E.",
      content: "<p>Body</p>",
    };
    const created = await createItem(backend.emulator, session, ada.user, "post", post, await logo());
    expect(created.publishedDate).toBe("2026-03-14T00:00:00.000+00:00");

    const updated = await updateItem(
      backend.emulator,
      session,
      ada.user,
      "post",
      created.$id,
      { ...post, title: "Hello again" },
      await logo(),
    );
    expect(updated.featuredImageUrl).not.toBe(created.featuredImageUrl);
    expect(await fileCount()).toBe(1);

    await deleteItem(session, ada.user, "post", created.$id);
    expect(await fileCount()).toBe(0);
    const left = await backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      queries: [Query.limit(1)],
    });
    expect(left.total).toBe(0);
  });

  it("removes the image it uploaded when the document cannot be written (no orphans)", async () => {
    const ada = await signedIn("ada@example.com");
    const session = createSessionServices(backend.emulator, ada.secret);
    await createItem(backend.emulator, session, ada.user, "venture", venture("taken"), null);

    const error = await createItem(
      backend.emulator,
      session,
      ada.user,
      "venture",
      venture("taken"),
      await logo(),
    ).catch((e: unknown) => e);

    expect(submissionErrorMessage(error)).toBe("Another item already uses this slug; choose a different one.");
    expect(await fileCount()).toBe(0);
  });
});

describe("image uploads are checked by content (SECURITY C31)", () => {
  it("accepts a real PNG and rejects HTML named .png, an empty file and a GIF header with a script", async () => {
    expect((await logo()).mimeType).toBe("image/png");
    const html = await readFile(path.join(FIXTURE_CONTENT, "images/fake.png"));
    await expect(checkImage(html)).rejects.toBeInstanceOf(ImageRejectedError);
    await expect(checkImage(new Uint8Array())).rejects.toThrow("The image file is empty.");
    await expect(checkImage(Buffer.from("GIF89a<script>alert(1)</script>"))).rejects.toThrow(/could not be read/);
  });
});
