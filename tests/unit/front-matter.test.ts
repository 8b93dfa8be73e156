import { existsSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FrontMatterError, parseFrontMatter } from "../../lib/content/front-matter.ts";
import { previewFile } from "../../lib/content/preview.ts";
import { readContent } from "../../lib/content/read.ts";

/** A content folder with one post file holding `text`; `marker` is a path code in it would create. */
async function postFolder(text: (marker: string) => string) {
  const dir = await mkdtemp(path.join(tmpdir(), "front-matter-"));
  await mkdir(path.join(dir, "posts"));
  const marker = path.join(dir, "pwned");
  const file = path.join(dir, "posts", "evil.md");
  await writeFile(file, text(marker));
  return { dir, marker, file };
}

const POST = "title: T\nexcerpt: x\nauthorName: A\npublishedDate: 2026-03-14\n";

describe("front matter is data, never code (SECURITY C62)", () => {
  for (const fence of ["---js", "---javascript", "--- js", "---coffee", "---json", "---yaml", "\uFEFF---js"]) {
    it(`refuses a file opening with ${JSON.stringify(fence)} without running it, naming the file`, async () => {
      const { dir, marker, file } = await postFolder(
        (m) => `${fence}\n{ title: require("node:fs").writeFileSync(${JSON.stringify(m)}, "x") || "T" }\n---\nBody\n`,
      );
      const { items, issues } = await readContent(dir);
      expect(items).toEqual([]);
      expect(issues).toContainEqual(
        expect.objectContaining({
          file: "posts/evil.md",
          field: "front matter",
          message: expect.stringMatching(/make the first line just ---/),
        }),
      );
      const preview = await previewFile(file);
      expect(preview.item).toBeNull();
      expect(existsSync(marker)).toBe(false);
    });
  }

  it("reads plain --- YAML, with unquoted dates as dates", () => {
    const { data, content } = parseFrontMatter(`---\n${POST}---\nBody\n`);
    expect(data.title).toBe("T");
    expect(data.publishedDate).toEqual(new Date("2026-03-14T00:00:00Z"));
    expect(content).toBe("Body\n");
  });

  it("refuses a YAML alias bomb within a second", async () => {
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
    }
    const { dir, file } = await postFolder(
      () => `---\n${levels.join("\n")}\ntitle: *i\nexcerpt: x\nauthorName: A\npublishedDate: 2026-03-14\n---\nBody\n`,
    );
    const { issues } = await readContent(dir);
    const preview = await previewFile(file);
    expect(issues).toContainEqual(
      expect.objectContaining({ file: "posts/evil.md", message: expect.stringMatching(/too many aliases/) }),
    );
    expect(preview.item).toBeNull();
  });

  it("refuses non-string values where strings are expected, and front matter that is not a mapping", async () => {
    const { dir } = await postFolder(
      () => `---\ntitle: [1, 2]\nexcerpt: {a: b}\nauthorName: A\npublishedDate: 2026-03-14\n---\nBody\n`,
    );
    const { issues } = await readContent(dir);
    expect(issues.map((i) => i.field)).toEqual(expect.arrayContaining(["title", "excerpt"]));
    expect(() => parseFrontMatter("---\n- a\n- b\n---\nBody")).toThrow(FrontMatterError);
    expect(() => parseFrontMatter("---\ntitle: a\ntitle: b\n---\nBody")).toThrow(/unique/i);
    expect(() => parseFrontMatter("---\ntitle: !!js/function 'function () {}'\n---\nBody")).toThrow(FrontMatterError);
  });
});
