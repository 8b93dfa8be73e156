import { mkdtemp, readFile, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AiSettings } from "../../lib/ai/gemini.ts";
import { readContent } from "../../lib/content/read.ts";
import { contentStatus, markReviewed } from "../../lib/translate/files.ts";
import { translateFiles } from "../../lib/ai/translate-file.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { studio as studioIn } from "../helpers/studio.ts";

/** An Appwrite that does not answer (port 9, discard). */
const UNREACHABLE = { endpoint: "http://127.0.0.1:9/v1", projectId: "p", apiKey: "k" };

let gemini: FakeGemini;
let settings: AiSettings;
let dir: string;

const SOURCE = `---
title: Inside the venture studio
excerpt: How a venture studio builds agencies.
authorName: Studio Editorial Team
publishedDate: 2026-03-14
---

<h2>Why</h2>
<p>A venture studio builds small agencies.</p>
<ul>
  <li>Focus</li>
  <li>Speed</li>
</ul>
<blockquote>Small is fast.</blockquote>
`;

const ARABIC = {
  title: "داخل استوديو المشاريع",
  excerpt: "كيف يبني استوديو المشاريع الوكالات.",
  authorName: "فريق التحرير",
  content:
    "<h2>لماذا</h2><p>يبني استوديو المشاريع وكالات صغيرة.</p><ul><li>التركيز</li><li>السرعة</li></ul>" +
    "<blockquote>الصغير سريع.</blockquote>",
};

async function states() {
  const { rows, issues } = await contentStatus(dir);
  expect(issues).toEqual([]);
  return rows.map((r) => `${r.slug}:${r.locale}:${r.state}`);
}

/** `studio <args>` in this process (tests/helpers/studio.ts), `env` added; no Appwrite is needed. */
const studio = (args: string[], env: NodeJS.ProcessEnv = {}) => studioIn(args, UNREACHABLE, env);

beforeAll(async () => {
  gemini = await startFakeGemini();
  settings = {
    apiKey: "test-key",
    textModel: "gemini-2.5-flash",
    imageModel: "gemini-2.5-flash-image",
    baseUrl: gemini.baseUrl,
    timeoutMs: 20_000, // a loaded shared machine: the first sanitizer call starts its worker
  };
  dir = await mkdtemp(path.join(tmpdir(), "translate-"));
  await mkdir(path.join(dir, "posts"));
  await writeFile(path.join(dir, "posts/inside.md"), SOURCE);
  await writeFile(path.join(dir, "glossary.yaml"), "- { en: venture studio, ar: استوديو المشاريع }\n");
});
afterAll(async () => gemini.close());

describe("studio translate and studio status", () => {
  it("goes missing → unreviewed → up-to-date → stale, keeping structure, glossary and provenance", async () => {
    // Given an English post and no Arabic version
    expect(await states()).toEqual(["inside:en:up-to-date", "inside:ar:missing"]);

    // When the model first drops the blockquote and the glossary term, then repairs both
    const broken = {
      ...ARABIC,
      title: "داخل الاستوديو",
      content: ARABIC.content.replace(/<blockquote>.*<\/blockquote>/, ""),
    };
    gemini.script({ json: broken }, { json: ARABIC });
    const [result] = await translateFiles(settings, {
      contentDir: dir,
      files: [path.join(dir, "posts/inside.md")],
      to: "ar",
      now: new Date("2026-04-01T10:00:00Z"),
    });

    // Then one repair named what broke, and the draft keeps everything
    expect(result).toMatchObject({ file: "posts/inside.ar.html", action: "written", repaired: true, violations: [] });
    expect(gemini.requests).toHaveLength(2);
    const [first, repair] = gemini.requests;
    expect(first!.path).toContain("gemini-2.5-flash:generateContent");
    const schema = first!.body.generationConfig.responseSchema;
    expect(Object.keys(schema.properties)).toEqual(["title", "excerpt", "authorName", "content"]);
    expect(JSON.stringify(first!.body.systemInstruction)).toContain("venture studio → استوديو المشاريع");
    const repairText = String(repair!.body.contents[0].parts[0].text);
    expect(repairText).toContain("block structure differs");
    expect(repairText).toContain('title: render "venture studio" as "استوديو المشاريع"');

    const text = await readFile(path.join(dir, "posts/inside.ar.html"), "utf8");
    expect(text).toMatch(/draft: true/);
    expect(text).toMatch(
      /translation:\n {2}sourceLocale: en\n {2}sourceHash: [0-9a-f]{64}\n {2}model: gemini-2.5-flash\n {2}translatedAt: 2026-04-01T10:00:00.000Z\n {2}reviewed: false/,
    );
    expect(text).not.toMatch(/slug:|publishedDate:/); // the slug is the file's; dates come from English
    const { items } = await readContent(dir);
    const arabic = items.find((i) => i.locale === "ar")!;
    expect(arabic).toMatchObject({ slug: "inside", draft: true });
    expect((arabic.frontMatter as Record<string, unknown>).publishedDate).toEqual(new Date("2026-03-14T00:00:00Z"));
    expect(await states()).toEqual(["inside:en:up-to-date", "inside:ar:unreviewed"]);

    // When a person reviews it
    expect(await markReviewed(dir, ["posts/inside.ar.html"])).toEqual(["posts/inside.ar.html"]);
    expect(await states()).toEqual(["inside:en:up-to-date", "inside:ar:up-to-date"]);

    // Reformatting the source (same stored words) keeps it up to date
    await writeFile(path.join(dir, "posts/inside.md"), SOURCE.replace("<li>Focus</li>", "<li>\n    Focus\n  </li>"));
    expect(await states()).toEqual(["inside:en:up-to-date", "inside:ar:up-to-date"]);

    // Changing a word makes it stale, and --check fails while the post is published
    await writeFile(path.join(dir, "posts/inside.md"), SOURCE.replace("Speed", "Pace"));
    expect(await states()).toEqual(["inside:en:up-to-date", "inside:ar:stale"]);
    const run = await studio(["status", "--dir", dir, "--json", "--check"]);
    expect(run.code).toBe(1);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toContainEqual(
      expect.objectContaining({ type: "translation", kind: "post", slug: "inside", locale: "ar", state: "stale" }),
    );
    expect(lines.at(-1)).toMatchObject({ type: "result", stale: 1, "up-to-date": 1, missing: 0, unreviewed: 0 });
  });

  it("says AI drafting is not configured without a key, and exits 3", async () => {
    const run = await studio(["translate", "x.md", "--to", "ar"], { GEMINI_API_KEY: "" });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("AI drafting is not configured: set GEMINI_API_KEY");
  });
});
