import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bodyDigest, readContent } from "../../lib/content/read.ts";
import { copyFixtureContent } from "../helpers/fixtures.ts";

// 40 nested quotes: deeper than the body bounds allow (32), so whether the bounds were checked shows.
const DEEP = `${"> ".repeat(40)}deep`;
const file = `---\ntitle: Deep\nexcerpt: x\nauthorName: A\npublishedDate: 2026-01-01\n---\n${DEEP}\n`;

describe("readContent with checkedBodies (issue #33 item 5: a re-push renders no unchanged body)", () => {
  it("checks the bounds of a body it was not told about", async () => {
    const dir = await copyFixtureContent();
    await writeFile(path.join(dir, "posts", "deep.md"), file);
    const { issues } = await readContent(dir, { checkedBodies: new Set([bodyDigest("markdown", "other")]) });
    expect(issues.map((i) => `${i.file}:${i.field}`)).toEqual(["posts/deep.md:body"]);
  });

  it("does not render again a body whose digest it was given (checked at the last push)", async () => {
    const dir = await copyFixtureContent();
    await writeFile(path.join(dir, "posts", "deep.md"), file);
    const { issues, items } = await readContent(dir, { checkedBodies: new Set([bodyDigest("markdown", DEEP)]) });
    expect(issues).toEqual([]);
    expect(items.some((i) => i.slug === "deep")).toBe(true);
  });

  it("ties the digest to the format: the same text as HTML is checked", async () => {
    const dir = await copyFixtureContent();
    const html = `<div>${"<div>".repeat(40)}deep${"</div>".repeat(40)}</div>`;
    await writeFile(path.join(dir, "posts", "deep.html"), file.replace(DEEP, html));
    const { issues } = await readContent(dir, { checkedBodies: new Set([bodyDigest("markdown", html)]) });
    expect(issues.map((i) => `${i.file}:${i.field}`)).toEqual(["posts/deep.html:body"]);
  });
});
