/**
 * Issue #30 items 4 and 5, against the embedded server: images a body references are uploaded by `studio push`
 * and stored as `/media/<id>`; a missing one fails its item (exit 1, file, line and path); `studio pull` keeps
 * a Markdown file Markdown (only the front matter when only it changed), downloads the body's images and writes
 * their relative paths back, and writes HTML (saying why) only for a body Markdown cannot express.
 */
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { ID, Permission, Query, Role } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stageDraft } from "../../cli/commands/preview.ts";
import { parseFrontMatter } from "../../lib/content/front-matter.ts";
import { versionsOf } from "../../lib/content/siblings.ts";
import { imageFileId } from "../../lib/publish/documents.ts";
import { pull } from "../../lib/publish/pull.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";
import { studio } from "../helpers/studio.ts";

let backend: Backend;
let dir: string;
let options: { contentDir: string; lockPath: string };
let cover: Buffer;
let logo: Buffer;

/** A Markdown post whose body shows two local images: one in Markdown, one as an HTML tag. */
const POST = `---
title: With Pictures
excerpt: A post with images in its body.
authorName: Test Author
publishedDate: 2026-04-01
generated:
  model: gemini-2.5-flash
  date: 2026-03-01T08:00:00.000Z
  topic: pictures
---
## Before you hire

Some text.

![A cover](../images/hello-cover.png)

<img src="../images/alpha-logo.png" alt="The logo">

- one
- two

> A quote (the content rules of an AI draft, which preview checks, ask for one).
`;

beforeEach(async () => {
  backend = await startBackend();
  dir = await copyFixtureContent();
  options = { contentDir: dir, lockPath: path.join(dir, "studio-lock.json") };
  cover = await readFile(path.join(dir, "images/hello-cover.png"));
  logo = await readFile(path.join(dir, "images/alpha-logo.png"));
  await writeFile(path.join(dir, "posts/with-pictures.md"), POST);
});
afterEach(async () => backend.close());

async function post(slug: string) {
  const { rows } = await backend.services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL.post.collectionId,
    queries: [Query.equal("slug", slug), Query.equal("locale", "en")],
  });
  return rows[0];
}
/** An edit made in the admin: a write to Appwrite that is not a push. */
async function adminEdit(slug: string, data: Record<string, unknown>) {
  const row = (await post(slug))!;
  await backend.services.tablesDB.updateRow({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL.post.collectionId,
    rowId: row.$id,
    data,
  });
}
async function fileIds(): Promise<string[]> {
  const { files } = await backend.services.storage.listFiles({
    bucketId: IMAGES_BUCKET_ID,
    queries: [Query.limit(100)],
  });
  return files.map((f) => f.$id).sort();
}
/** The body of a content file as written: everything after the front matter's closing line. */
const bodyOf = (text: string) => parseFrontMatter(text).content;

describe("studio push: images in a body (issue #30 item 4)", () => {
  it("uploads them like featured images, stores /media/<id>, leaves the file alone, and a re-push uploads nothing", async () => {
    const before = await readFile(path.join(dir, "posts/with-pictures.md"), "utf8");
    // An HTML file's <img> too.
    const venture = path.join(dir, "ventures/beta-works.html");
    await writeFile(
      venture,
      `${await readFile(venture, "utf8")}<p><img src="../images/hello-cover.png" alt="Cover"></p>\n`,
    );
    const run = await studio(["push", "--dir", dir, "--json"], backend.emulator);
    expect(run.code).toBe(0);
    const { rows } = await backend.services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.venture.collectionId,
      queries: [Query.equal("slug", "beta-works")],
    });
    expect(String(rows[0]!.caseStudy)).toContain(`<img src="/media/${imageFileId(cover)}" alt="Cover">`);

    const stored = String((await post("with-pictures"))!.content);
    expect(stored).toContain(`<img src="/media/${imageFileId(cover)}" alt="A cover">`);
    expect(stored).toContain(`<img src="/media/${imageFileId(logo)}" alt="The logo">`);
    expect(stored).not.toContain("../images/");
    const view = await backend.services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId: imageFileId(cover) });
    expect(Buffer.from(view)).toEqual(cover);
    expect(await readFile(path.join(dir, "posts/with-pictures.md"), "utf8")).toBe(before);
    const files = await fileIds();

    // Nothing changed: nothing written; a body edit that keeps the images uploads nothing either.
    expect((await studio(["push", "--dir", dir, "--json"], backend.emulator)).result()).toMatchObject({
      created: 0,
      updated: 0,
    });
    await writeFile(path.join(dir, "posts/with-pictures.md"), before.replace("Some text.", "Other text."));
    expect((await studio(["push", "--dir", dir, "--json"], backend.emulator)).result()).toMatchObject({
      updated: 1,
      failed: 0,
    });
    expect(String((await post("with-pictures"))!.content)).toContain(`/media/${imageFileId(cover)}`);
    expect(await fileIds()).toEqual(files);
  });

  it("fails an item whose body image is missing, not an image, outside the folder or http: (exit 1), naming file, line and path", async () => {
    await mkdir(path.join(dir, "outside-images"), { recursive: true });
    await writeFile(
      path.join(dir, "posts/broken.md"),
      POST.replace("With Pictures", "Broken")
        .replace("../images/hello-cover.png", "../images/missing.jpg")
        .replace(
          "- one",
          "![fake](../images/fake.png)\n\n![far](../../elsewhere.png)\n\n![plain](http://example.com/x.png)\n\n- one",
        ),
    );

    const run = await studio(["push", "--dir", dir], backend.emulator);

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/posts\/broken\.md: body: line 15: image "\.\.\/images\/missing\.jpg" does not exist/);
    expect(run.stderr).toMatch(
      /posts\/broken\.md: body: line 19: image "\.\.\/images\/fake\.png" is not a real PNG image/,
    );
    expect(run.stderr).toMatch(
      /posts\/broken\.md: body: line 21: image "\.\.\/\.\.\/elsewhere\.png" is outside the content folder/,
    );
    expect(run.stderr).toMatch(
      /posts\/broken\.md: body: line 23: the image "http:\/\/example\.com\/x\.png" is an http: URL.*Content-Security-Policy/,
    );
    // Nothing of the failing item is stored; the other items are.
    expect(await post("broken")).toBeUndefined();
    expect(await post("with-pictures")).toBeDefined();
  });
});

describe("studio preview shows a body's images (issue #30 item 4)", () => {
  it("names each in the terminal, and --web's staged copy carries the files so the throw-away site serves them", async () => {
    const file = path.join(dir, "posts/with-pictures.md");
    const shown = await studio(["preview", file], backend.emulator);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("[image: A cover (../images/hello-cover.png)]");
    expect(shown.stdout).toContain("[image: The logo (../images/alpha-logo.png)]");

    const staged = await stageDraft(await versionsOf("post", file));
    expect(await readFile(path.join(staged, "images/hello-cover.png"))).toEqual(cover);
    expect(await push(backend.services, { contentDir: staged })).toMatchObject({ failed: 0, issues: [] });
    expect(String((await post("with-pictures"))!.content)).toContain(`/media/${imageFileId(cover)}`);
    const view = await backend.services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId: imageFileId(logo) });
    expect(Buffer.from(view)).toEqual(logo);
  });
});

describe("studio pull keeps Markdown (issue #30 item 5) and brings body images home (item 4)", () => {
  it("after an excerpt edit rewrites only the front matter: the body's bytes stay, generated: is kept", async () => {
    await push(backend.services, options);
    const file = path.join(dir, "posts/with-pictures.md");
    const before = await readFile(file, "utf8");
    await adminEdit("with-pictures", { excerpt: "Edited in the admin." });

    const result = await pull(backend.services, options);

    expect(result.items.find((i) => i.slug === "with-pictures")).toMatchObject({
      action: "write",
      status: "done",
      file: "posts/with-pictures.md",
    });
    const after = await readFile(file, "utf8");
    expect(bodyOf(after)).toBe(bodyOf(before));
    expect(after).toContain("excerpt: Edited in the admin.");
    expect(after).toContain(
      "generated:\n  model: gemini-2.5-flash\n  date: 2026-03-01T08:00:00.000Z\n  topic: pictures\n",
    );
    expect(result.images).toEqual([]);
    expect(await push(backend.services, options)).toMatchObject({ created: 0, updated: 0, conflicts: 0 });
  });

  it("round trip: file → push → admin body edit with a new image → pull gives Markdown with relative images; push uploads nothing", async () => {
    await push(backend.services, options);
    // The admin uploads an image (its own id, not a content hash) and inserts it; rewrites the text.
    const added = Buffer.concat([cover, Buffer.from("admin copy")]);
    const upload = await backend.services.storage.createFile({
      bucketId: IMAGES_BUCKET_ID,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(added, "upload.png"),
      permissions: [Permission.read(Role.any())],
    });
    const stored = String((await post("with-pictures"))!.content);
    await adminEdit("with-pictures", {
      content: stored
        .replace("Some text.", "Rewritten in the <strong>admin</strong>.")
        .replace("<ul>", `<p><img src="/media/${upload.$id}" alt="Added in the admin"></p><ul>`),
    });

    const result = await pull(backend.services, options);

    const text = await readFile(path.join(dir, "posts/with-pictures.md"), "utf8");
    expect(result.items.find((i) => i.slug === "with-pictures")).toMatchObject({ action: "write", status: "done" });
    expect(bodyOf(text)).toContain("Rewritten in the **admin**.");
    expect(bodyOf(text)).toContain("![A cover](../images/hello-cover.png)");
    // The HTML image stood on a line of its own (no paragraph): it stays a tag, so it renders the same.
    expect(bodyOf(text)).toContain('<img src="../images/alpha-logo.png" alt="The logo">');
    const downloaded = /!\[Added in the admin\]\(\.\.\/images\/(with-pictures-[\w-]+\.png)\)/.exec(text);
    expect(downloaded).not.toBeNull();
    expect(result.images).toEqual([`images/${downloaded![1]}`]);
    expect(await readFile(path.join(dir, "images", downloaded![1]!))).toEqual(added);
    expect(text).not.toContain("/media/");

    // push → pull → push: nothing to write, nothing to upload, also once the file's text changes.
    const files = await fileIds();
    expect(await push(backend.services, options)).toMatchObject({ created: 0, updated: 0, conflicts: 0, failed: 0 });
    await writeFile(path.join(dir, "posts/with-pictures.md"), text.replace("Rewritten", "Written"));
    expect(await push(backend.services, options)).toMatchObject({ updated: 1, failed: 0 });
    expect(String((await post("with-pictures"))!.content)).toContain(
      `<img src="/media/${upload.$id}" alt="Added in the admin">`,
    );
    expect(await fileIds()).toEqual(files);
  });

  it("pull --force over a file made invalid by a missing image replaces that file, still Markdown, not a second one", async () => {
    await push(backend.services, options);
    const file = path.join(dir, "posts/with-pictures.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("../images/hello-cover.png", "../images/gone.png"));
    await adminEdit("with-pictures", { excerpt: "Edited in the admin." });

    const result = await pull(backend.services, { ...options, force: true });

    expect(result.items.find((i) => i.slug === "with-pictures")).toMatchObject({
      action: "write",
      status: "done",
      file: "posts/with-pictures.md",
    });
    expect((await readdir(path.join(dir, "posts"))).filter((f) => f.startsWith("with-pictures"))).toEqual([
      "with-pictures.md",
    ]);
    const text = await readFile(file, "utf8");
    expect(text).toContain("excerpt: Edited in the admin.");
    expect(text).toContain("![A cover](../images/hello-cover.png)");
  });

  it("writes HTML, and says why, for a body Markdown cannot express", async () => {
    await push(backend.services, options);
    await adminEdit("with-pictures", {
      content: "<h2>Prices</h2><table><tbody><tr><td>Plan</td><td>9</td></tr></tbody></table>",
    });

    const run = await studio(["pull", "--dir", dir], backend.emulator);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "posts/with-pictures.md: the body has a table Markdown can't express; written as HTML",
    );
    expect(await readdir(path.join(dir, "posts"))).not.toContain("with-pictures.md");
    const html = await readFile(path.join(dir, "posts/with-pictures.html"), "utf8");
    expect(html).toContain("<table>");
    expect(html).toContain("topic: pictures"); // generated: kept
    expect((await studio(["push", "--dir", dir, "--json"], backend.emulator)).result()).toMatchObject({
      updated: 0,
      conflicts: 0,
    });
  });
});
