/**
 * `studio`'s messages as a new user meets them (issue 14 item 5), in this process (tests/helpers/studio.ts):
 * every message names the file and field, says what is expected and gives an example; everything `studio`
 * writes passes `format --check`; no command runs code from the front matter (SECURITY C62). The same
 * commands as a process (exit status, terminals, `--help`) are tests/integration/cli-contract.test.ts.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Query } from "node-appwrite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";
import { studio } from "../helpers/studio.ts";

let backend: Backend;
let gemini: FakeGemini;
beforeAll(async () => {
  gemini = await startFakeGemini();
});
afterAll(async () => gemini.close());
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

const POST = (front: string, body = "## Why\n\nText.\n\n- a\n- b\n\n> Quote.") => `---\n${front}\n---\n\n${body}\n`;

describe("studio's messages, as met by a new user", () => {
  it("the committed content passes format --check (the README's CI recipe)", async () => {
    const run = await studio(["format", "--check"], backend.emulator);
    expect(run.stdout).toMatch(/0 file\(s\) need formatting/);
    expect(run.code).toBe(0);
  });

  it("format --check <file> checks that file, given from the project folder; an unknown file is exit 2", async () => {
    const dir = await copyFixtureContent();
    const one = await studio(
      ["format", "--check", "--dir", dir, path.join(dir, "ventures/beta-works.html")],
      backend.emulator,
    );
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/would format ventures\/beta-works\.html/);
    const relative = await studio(["format", "--check", "--dir", dir, "ventures/beta-works.html"], backend.emulator);
    expect(relative.code).toBe(1);
    const missing = await studio(["format", "--check", "--dir", dir, "posts/nope.md"], backend.emulator);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/posts\/nope\.md/);
  });

  it("pull writes files that pass format --check", async () => {
    const dir = await copyFixtureContent();
    expect((await studio(["format", "--dir", dir], backend.emulator)).code).toBe(0);
    expect((await studio(["push", "--dir", dir, "--json"], backend.emulator)).code).toBe(0);
    const page = await backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      queries: [Query.equal("slug", "hello-world")],
    });
    await backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: page.documents[0]!.$id,
      data: {
        content:
          "<h2>Edited</h2><p>A long paragraph written in the admin, on one line, longer than one hundred characters so Prettier wraps it.</p><ul><li>a</li></ul>",
      },
    });
    expect((await studio(["pull", "--dir", dir, "--json"], backend.emulator)).code).toBe(0);
    const check = await studio(["format", "--check", "--dir", dir], backend.emulator);
    expect(check.stdout).toMatch(/0 file\(s\) need formatting/);
    expect(check.code).toBe(0);
  });

  it("generate writes a draft that passes format --check and previews its provenance readably", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "generate-"));
    gemini.script({
      json: {
        title: "Why Small Agencies Win",
        slug: "why-small-agencies-win",
        excerpt: "Focus beats size.",
        content:
          "<h2>Focus</h2><p>One job. Done well, by a small team that knows its customers by name and answers the phone.</p><ul><li>a</li></ul><blockquote>Small is fast.</blockquote>",
      },
    });
    const run = await studio(
      ["generate", "post", "--topic", "small agencies", "--dir", dir, "--json"],
      backend.emulator,
      {
        GEMINI_API_KEY: "test-key",
        GEMINI_BASE_URL: gemini.baseUrl,
      },
    );
    expect(run.code).toBe(0);
    expect((await studio(["format", "--check", "--dir", dir], backend.emulator)).code).toBe(0);

    const preview = await studio(["preview", path.join(dir, "posts/why-small-agencies-win.html")], backend.emulator);
    expect(preview.stdout).not.toContain("[object Object]");
    expect(preview.stdout).toMatch(/generated\s+gemini-2\.5-flash, .*topic "small agencies"/);
  });

  it("validation messages name the field, the expected form and an example", async () => {
    const dir = await copyFixtureContent();
    await writeFile(path.join(dir, "posts/no-author.md"), POST("title: T\nexcerpt: E\npublishedDate: 2026-03-14"));
    await writeFile(
      path.join(dir, "posts/bad-date.md"),
      POST("title: T\nexcerpt: E\nauthorName: A\npublishedDate: 14/03/2026"),
    );
    await writeFile(path.join(dir, "posts/bad-yaml.md"), POST("title: T: x\nexcerpt: [E"));
    const run = await studio(["push", "--dir", dir, "--dry-run"], backend.emulator);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/Invalid input/);
    expect(run.stderr).toMatch(/posts\/no-author\.md: authorName: is missing; add it, e.g\. authorName: /);
    expect(run.stderr).toMatch(/posts\/bad-date\.md: publishedDate: expected a date like 2026-03-14/);
    const yaml = run.stderr.split("\n").find((l) => l.includes("posts/bad-yaml.md"))!;
    expect(yaml).toMatch(/front matter: is not valid YAML/);
    expect(yaml).toMatch(/line \d+/);
    expect(yaml).not.toMatch(/:\s*$/);
  });

  it("refuses an image outside the content folder, naming file and field", async () => {
    const dir = await copyFixtureContent();
    const outside = await mkdtemp(path.join(tmpdir(), "outside-"));
    await copyFile(path.join(dir, "images/hello-cover.png"), path.join(outside, "x.png"));
    const ref = path.relative(path.join(dir, "posts"), path.join(outside, "x.png"));
    expect(ref.startsWith("../../")).toBe(true);
    await writeFile(
      path.join(dir, "posts/escape.md"),
      POST(`title: T\nexcerpt: E\nauthorName: A\npublishedDate: 2026-03-14\nfeaturedImage: ${ref}`),
    );
    const run = await studio(["push", "--dir", dir, "--dry-run"], backend.emulator);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/posts\/escape\.md: featuredImage: .*outside the content folder/);
  });

  it("warns about stray files and removed HTML, and calls a binary file not a text file", async () => {
    const dir = await copyFixtureContent();
    await writeFile(path.join(dir, "x.md"), POST("title: Stray"));
    await mkdir(path.join(dir, "posts/sub"));
    await writeFile(path.join(dir, "posts/sub/x.md"), POST("title: Stray"));
    await writeFile(
      path.join(dir, "posts/scripted.html"),
      POST(
        "title: T\nexcerpt: E\nauthorName: A\npublishedDate: 2026-03-14",
        '<h2>Hi</h2>\n<p onclick="steal()">Text</p>\n<script>steal()</script>\n<ul>\n  <li>a</li>\n</ul>\n<blockquote>Q</blockquote>',
      ),
    );
    await copyFile(path.join(dir, "images/hello-cover.png"), path.join(dir, "posts/binary.md"));
    const run = await studio(["push", "--dir", dir, "--dry-run"], backend.emulator);
    expect(run.stderr).toMatch(/x\.md: .*ignored/);
    expect(run.stderr).toMatch(/posts\/sub\/x\.md: .*ignored/);
    expect(run.stderr).toMatch(/posts\/scripted\.html: body: removed <script> \(not allowed\)/);
    expect(run.stderr).toMatch(/posts\/scripted\.html: body: removed the onclick attribute/);
    expect(run.stderr).toMatch(/posts\/binary\.md: file: is not a text file/);
    expect(run.stderr).not.toMatch(/posts\/binary\.md: (title|excerpt)/);
  });

  it("preview --json describes images by path, size and type, not their bytes", async () => {
    const dir = await copyFixtureContent();
    const run = await studio(["preview", path.join(dir, "posts/hello-world.md"), "--json"], backend.emulator);
    const result = run.result();
    expect(run.stdout).not.toMatch(/"bytes"/);
    expect((result.item as { image: unknown }).image).toMatchObject({
      path: expect.stringMatching(/hello-cover\.png$/),
      size: expect.any(Number),
      type: "image/png",
    });
  });

  it("no command runs code from a ---js front matter (SECURITY C62): each names the file and refuses it", async () => {
    const dir = await copyFixtureContent();
    const marker = path.join(dir, "pwned");
    const code = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, process.env.APPWRITE_API_KEY ?? "")`;
    await writeFile(path.join(dir, "posts", "evil.md"), `---js\n{ title: ${code} || "T" }\n---\nBody\n`);
    for (const args of [
      ["preview", path.join(dir, "posts", "evil.md")],
      ["format", "--check", "--dir", dir],
      ["push", "--dry-run", "--dir", dir],
      ["status", "--dir", dir],
    ]) {
      const run = await studio(args, backend.emulator);
      expect(`${run.stdout}${run.stderr}`, args.join(" ")).toMatch(/evil\.md[\s\S]*make the first line just ---/);
      expect(existsSync(marker), args.join(" ")).toBe(false);
    }
  });
  it("a conflict and invalid content together exit 4 (the README's order), reporting both", async () => {
    const dir = await copyFixtureContent();
    expect((await studio(["push", "--dir", dir, "--json"], backend.emulator)).code).toBe(0);
    const page = await backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      queries: [Query.equal("slug", "second-post")],
    });
    await backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: page.documents[0]!.$id,
      data: { title: "Edited in the admin" },
    });
    await writeFile(
      path.join(dir, "posts/second-post.md"),
      POST("title: Changed\nexcerpt: E\nauthorName: A\npublishedDate: 2026-03-14"),
    );
    await writeFile(path.join(dir, "posts/broken.md"), POST("title: T"));
    const run = await studio(["push", "--dir", dir], backend.emulator);
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(/conflict post second-post/);
    expect(run.stderr).toMatch(/posts\/broken\.md/);
  });
});
