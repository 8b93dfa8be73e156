/**
 * The front-matter fast path (issue #33 item 6) gives exactly what the `yaml` package gives, or nothing: every
 * block below is parsed both ways, with the schema `parseYamlBlock` uses.
 */
import { describe, expect, it } from "vitest";
import { parseDocument, Schema } from "yaml";
import { parseSimpleYaml } from "../../lib/content/simple-yaml.ts";
import { parseFrontMatter } from "../../lib/content/front-matter.ts";

const SCHEMA = new Schema({ schema: "core", customTags: ["timestamp"], resolveKnownTags: true });
const full = (source: string) => parseDocument(source, { schema: SCHEMA, uniqueKeys: true }).toJS() as unknown;

/** Blocks the fast path reads itself. */
const SIMPLE = [
  "title: Post 1\nexcerpt: Generated post number 1.\nauthorName: Bench\npublishedDate: 2026-02-05\n",
  "title: مقالة 1\nexcerpt: مقالة مولدة رقم 1.\nauthorName: Bench\n",
  "title: What’s next — a studio’s view… (part two)\nauthorName: Studio Editorial Team\n\nexcerpt: Why? Because, it's time/now & here\n",
  "title: إطلاق المنصة، لماذا؟\npublishedDate: 2026-02-31\n",
  "title: Nullable things\nslug: truly-false\n",
];
/** Blocks it leaves to `yaml`: each means something a plain reading would get wrong, or is an error. */
const NOT_SIMPLE = [
  "title: true\n",
  "title: null\n",
  "draft: false\n",
  "title: 10 tips\n",
  "title: +1 idea\n",
  "title: 'quoted'\n",
  'title: "quoted"\n',
  "title: a # comment\n",
  "title: a: b\n",
  "title:\n",
  "title: \n",
  "title: trailing \n",
  "title: a\ntitle: b\n",
  "title: a\r\nexcerpt: b\r\n",
  "tags: [a, b]\n",
  "title: *alias\n",
  "title: &anchor x\n",
  "title: !tag x\n",
  "title: @at\n",
  "title: `tick`\n",
  "title: a\n  continued\n",
  "# comment\ntitle: a\n",
  "publishedDate: 2026-02-05T10:00:00Z\n",
  "publishedDate: 2026-2-5\n",
  "publishedDate: 2026-13-01\n",
  "__proto__: x\n",
  "null: x\n",
  "title: a\tb\n",
  "- a\n- b\n",
  "translation:\n  model: x\n",
  "title: .inf\n",
  "title: ~\n",
  "title: %x\n",
  "title: {a}\n",
];

describe("the front-matter fast path", () => {
  it.each(SIMPLE)("reads %j as yaml does", (source) => {
    const fast = parseSimpleYaml(source);
    expect(fast).not.toBeNull();
    expect(fast).toEqual(full(source));
  });

  it.each(NOT_SIMPLE)("leaves %j to yaml", (source) => {
    expect(parseSimpleYaml(source)).toBeNull();
  });

  it("gives a content file the fields and dates the full parser gave", () => {
    const text = "---\ntitle: Post 7\nauthorName: Bench\npublishedDate: 2026-02-07\n---\n## Body\n";
    const { data, content } = parseFrontMatter(text);
    expect(data).toEqual({ title: "Post 7", authorName: "Bench", publishedDate: new Date("2026-02-07T00:00:00Z") });
    expect(content).toBe("## Body\n");
  });
});
