import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readContent } from "../../lib/content/read.ts";
import { contentFileFormat } from "../../model/content.ts";
import { copyFixtureContent } from "../helpers/fixtures.ts";

describe("readContent", () => {
  it("reads the fixture ventures and posts with their slugs, formats, drafts and images", async () => {
    const dir = await copyFixtureContent();
    const { items, issues } = await readContent(dir);
    expect(issues).toEqual([]);
    expect(items.map((i) => `${i.kind}:${i.slug}:${i.format}:${i.draft}`).sort()).toEqual([
      "post:hello-world:markdown:false",
      "post:second-post:markdown:false",
      "post:work-in-progress:markdown:true",
      "venture:alpha-agency:markdown:false",
      "venture:beta-works:html:false",
    ]);
    const alpha = items.find((i) => i.slug === "alpha-agency");
    expect(alpha?.image && "mimeType" in alpha.image ? alpha.image.mimeType : null).toBe("image/png");
  });

  it("names the file and the field of every front-matter error", async () => {
    const dir = await copyFixtureContent();
    await writeFile(
      path.join(dir, "posts", "broken.md"),
      "---\ntitle: ''\nexcerpt: x\nauthorName: A\npublishedDate: not-a-date\ncolour: red\n---\nBody\n",
    );
    const { items, issues } = await readContent(dir);
    expect(items.some((i) => i.file === "posts/broken.md")).toBe(false);
    const fields = issues.filter((i) => i.file === "posts/broken.md").map((i) => i.field);
    expect(fields).toEqual(expect.arrayContaining(["title", "publishedDate", "front matter"]));
  });

  it("rejects an image whose bytes are not what its extension says", async () => {
    const dir = await copyFixtureContent();
    await writeFile(
      path.join(dir, "ventures", "fake-logo.md"),
      "---\nname: Fake\nshortDescription: x\nwebsiteURL: https://fake.example\nlogo: ../images/fake.png\n---\nBody\n",
    );
    const { issues } = await readContent(dir);
    expect(issues).toContainEqual(
      expect.objectContaining({
        file: "ventures/fake-logo.md",
        field: "logo",
        message: expect.stringMatching(/not a real PNG/),
      }),
    );
  });

  it("reports a missing image, an invalid file-name slug, an empty body and duplicate slugs", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "content-"));
    const { mkdir } = await import("node:fs/promises");
    await mkdir(path.join(dir, "ventures"));
    const venture = (extra: string, body = "Body") =>
      `---\nname: V\nshortDescription: x\nwebsiteURL: https://v.example\n${extra}---\n${body}\n`;
    await writeFile(path.join(dir, "ventures", "Bad Name.md"), venture(""));
    await writeFile(path.join(dir, "ventures", "a.md"), venture("logo: ../images/missing.png\n"));
    await writeFile(path.join(dir, "ventures", "b.md"), venture("", ""));
    await writeFile(path.join(dir, "ventures", "c.md"), venture("slug: same\n"));
    await writeFile(path.join(dir, "ventures", "d.md"), venture("slug: same\n"));
    const { items, issues } = await readContent(dir);
    expect(issues.map((i) => `${i.file}|${i.field}`).sort()).toEqual([
      "ventures/Bad Name.md|slug",
      "ventures/a.md|logo",
      "ventures/b.md|body",
      "ventures/c.md|slug",
      "ventures/d.md|slug",
    ]);
    // Neither file of a duplicated slug is read as the item: which one is the real one cannot be told.
    expect(items.map((i) => i.slug)).toEqual([]);
    const duplicate = issues.find((i) => i.file === "ventures/c.md")!;
    expect(duplicate.message).toContain("ventures/d.md");
    expect(duplicate.blocks).toEqual({ kind: "venture", key: "same" });
  });

  it("holds back every version of a slug two files declare in one locale (issue #26 item 10)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "content-"));
    const { mkdir } = await import("node:fs/promises");
    await mkdir(path.join(dir, "posts"));
    const post = (slug: string, title: string) =>
      `---\nslug: ${slug}\ntitle: ${title}\nexcerpt: x\nauthorName: A\npublishedDate: 2024-01-01\n---\nBody\n`;
    await writeFile(path.join(dir, "posts", "live.md"), post("live", "Live"));
    await writeFile(path.join(dir, "posts", "another-copy.md"), post("live", "Copy"));
    await writeFile(path.join(dir, "posts", "live.ar.md"), post("live", "حي"));
    await writeFile(path.join(dir, "posts", "other.md"), post("other", "Other"));
    const { items, issues } = await readContent(dir);
    expect(items.map((i) => `${i.slug}:${i.locale}`)).toEqual(["other:en"]);
    expect(issues.map((i) => `${i.file}|${i.blocks?.key}`).sort()).toEqual([
      "posts/another-copy.md|live",
      "posts/live.ar.md|live@ar",
      "posts/live.md|live",
    ]);
  });
});

describe("contentFileFormat", () => {
  it("reads Markdown and HTML by the extension, in any case, and nothing else", () => {
    expect(["a.md", "A.MD", "a.markdown", "posts/a.ar.md"].map(contentFileFormat)).toEqual(Array(4).fill("markdown"));
    expect(["a.html", "a.HTM", "ventures\\b.html"].map(contentFileFormat)).toEqual(Array(3).fill("html"));
    expect(["notes.txt", "a.md.bak", ".md", "posts.md/readme", "md"].map(contentFileFormat)).toEqual(
      Array(5).fill(undefined),
    );
  });
});
