import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Query } from "node-appwrite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseFileViewUrl } from "../../lib/appwrite/client.ts";
import { push } from "../../lib/publish/push.ts";
import { COLLECTIONS, DATABASE_ID, IMAGES_BUCKET_ID } from "../../schemas/content.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let contentDir: string;

beforeEach(async () => {
  backend = await startBackend();
  contentDir = await copyFixtureContent();
});
afterEach(async () => backend.close());

async function documents(collectionId: string) {
  return (
    await backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId,
      queries: [Query.limit(100)],
    })
  ).documents;
}
async function fileCount() {
  return (await backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).total;
}

describe("studio push", () => {
  it("creates every published item on the first run, with HTML bodies and uploaded images", async () => {
    const result = await push(backend.services, { contentDir });

    expect(result).toMatchObject({
      created: 4,
      updated: 0,
      unchanged: 0,
      failed: 0,
      drafts: ["posts/work-in-progress.md"],
    });
    const ventures = await documents(COLLECTIONS.ventures);
    const alpha = ventures.find((v) => v.slug === "alpha-agency")!;
    expect(alpha.caseStudy).toContain("<h2>The Problem</h2>");
    expect(alpha.$permissions).toEqual(['read("any")']);
    const file = parseFileViewUrl(String(alpha.logoUrl));
    expect(file?.bucketId).toBe(IMAGES_BUCKET_ID);
    const bytes = await backend.services.storage.getFileView({ bucketId: IMAGES_BUCKET_ID, fileId: file!.fileId });
    expect(Buffer.from(bytes)).toEqual(await readFile(path.join(contentDir, "images/alpha-logo.png")));

    // The image shared by a venture and a post is stored once; the draft is not published.
    expect(await fileCount()).toBe(2);
    const posts = await documents(COLLECTIONS.blogPosts);
    expect(posts.map((p) => p.slug).sort()).toEqual(["hello-world", "second-post"]);
    expect(posts.find((p) => p.slug === "second-post")?.publishedDate).toBe("2026-05-02T08:30:00.000+00:00");
  });

  it("sanitizes HTML bodies before storing them", async () => {
    await push(backend.services, { contentDir });
    const beta = (await documents(COLLECTIONS.ventures)).find((v) => v.slug === "beta-works")!;
    expect(beta.caseStudy).not.toMatch(/<script|onclick|javascript:/i);
    expect(beta.caseStudy).toContain("<blockquote>Speed matters.</blockquote>");
  });

  it("writes nothing on a second run with nothing changed", async () => {
    await push(backend.services, { contentDir });
    const before = await documents(COLLECTIONS.ventures);

    const second = await push(backend.services, { contentDir });

    expect(second).toMatchObject({ created: 0, updated: 0, unchanged: 4, failed: 0 });
    const after = await documents(COLLECTIONS.ventures);
    expect(after.map((d) => d.$updatedAt)).toEqual(before.map((d) => d.$updatedAt));
    expect(await fileCount()).toBe(2);
  });

  it("updates only the fields that changed in a file", async () => {
    await push(backend.services, { contentDir });
    const file = path.join(contentDir, "posts/hello-world.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("The first fixture post.", "A new excerpt."));

    const result = await push(backend.services, { contentDir });

    expect(result).toMatchObject({ created: 0, updated: 1, unchanged: 3 });
    expect(result.items.find((i) => i.slug === "hello-world")?.changes).toEqual(["excerpt"]);
    const hello = (await documents(COLLECTIONS.blogPosts)).find((p) => p.slug === "hello-world");
    expect(hello?.excerpt).toBe("A new excerpt.");
  });

  it("fails an invalid file with its name and field, writes nothing of it, and still pushes the rest", async () => {
    await writeFile(
      path.join(contentDir, "posts/bad-date.md"),
      "---\ntitle: Bad\nexcerpt: x\nauthorName: A\npublishedDate: someday\nfeaturedImage: ../images/hello-cover.png\n---\nBody\n",
    );

    const result = await push(backend.services, { contentDir });

    expect(result.failed).toBe(1);
    expect(result.issues).toContainEqual(
      expect.objectContaining({ file: "posts/bad-date.md", field: "publishedDate" }),
    );
    expect(result.created).toBe(4);
    expect((await documents(COLLECTIONS.blogPosts)).some((p) => p.slug === "bad-date")).toBe(false);
  });

  it("with dryRun plans the work and writes nothing", async () => {
    const result = await push(backend.services, { contentDir, dryRun: true });

    expect(result).toMatchObject({ created: 4, dryRun: true });
    expect(await documents(COLLECTIONS.ventures)).toEqual([]);
    expect(await fileCount()).toBe(0);
  });
});
