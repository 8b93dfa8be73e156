/**
 * Issue #26 item 10: `studio translate` never replaces a version a person wrote or reviewed without
 * `--force`, keeps the file's extension when it replaces one, and the push plan says when a push changes an
 * item's state (published → draft). Before, a stale reviewed `posts/x.ar.md` was deleted and an `x.ar.html`
 * draft written with no prompt, and the next push unpublished the live Arabic page without saying so.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plainLine } from "../../cli/commands/push.ts";
import type { AiSettings } from "../../lib/ai/gemini.ts";
import { readContent } from "../../lib/content/read.ts";
import { push } from "../../lib/publish/push.ts";
import { markReviewed } from "../../lib/translate/files.ts";
import { translateFiles } from "../../lib/ai/translate-file.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";

let gemini: FakeGemini;
let settings: AiSettings;
let backend: Backend;
let dir: string;

const ENGLISH = (words: string) =>
  `---\ntitle: Inside\nexcerpt: How it works.\nauthorName: Studio Team\npublishedDate: 2026-03-14\n---\n${words}\n`;
/** The reviewed Arabic version, written in Markdown by a person. */
const ARABIC_MD =
  "---\ntitle: في الداخل\nexcerpt: كيف يعمل.\nauthorName: فريق الاستوديو\ntranslation:\n  sourceLocale: en\n" +
  "  model: human\n  reviewed: false\n---\n## لماذا\n\nنص كتبه إنسان.\n";
const MODEL = {
  title: "في الداخل",
  excerpt: "كيف يعمل.",
  authorName: "فريق الاستوديو",
  content: "<h2>لماذا</h2><p>مسودة الآلة.</p>",
};

beforeAll(async () => {
  gemini = await startFakeGemini();
  settings = {
    apiKey: "test-key",
    textModel: "gemini-2.5-flash",
    imageModel: "gemini-2.5-flash-image",
    baseUrl: gemini.baseUrl,
    timeoutMs: 20_000,
  };
  backend = await startBackend();
  dir = await copyFixtureContent();
  await writeFile(path.join(dir, "posts/inside.md"), ENGLISH("## Why\n\nA studio."));
  await writeFile(path.join(dir, "posts/inside.ar.md"), ARABIC_MD);
  await markReviewed(dir, ["posts/inside.ar.md"]);
});
afterAll(async () => {
  await gemini?.close();
  await backend?.close();
});

const lock = () => path.join(dir, "studio-lock.json");
const arabicFiles = async () => (await readdir(path.join(dir, "posts"))).filter((n) => n.startsWith("inside."));

describe("studio translate over a version a person reviewed", () => {
  it("leaves a stale reviewed .ar.md alone without --force, saying why and how", async () => {
    const pushed = await push(backend.services, { contentDir: dir, lockPath: lock() });
    expect(pushed.failed).toBe(0);
    // The English source changes: the reviewed Arabic version is stale.
    await writeFile(path.join(dir, "posts/inside.md"), ENGLISH("## Why\n\nA small studio."));
    const before = await readFile(path.join(dir, "posts/inside.ar.md"), "utf8");

    const [result] = await translateFiles(settings, { contentDir: dir, files: ["posts/inside.md"], to: "ar" });
    expect(result).toMatchObject({ action: "skipped", file: "posts/inside.ar.md", before: "stale" });
    expect(result!.reason).toMatch(/reviewed by a person.*--force/);
    expect(gemini.requests).toHaveLength(0);
    expect(await readFile(path.join(dir, "posts/inside.ar.md"), "utf8")).toBe(before);
    expect(await arabicFiles()).toEqual(["inside.ar.md", "inside.md"]);
  });

  it("with --force replaces it in its own .md file, and the push plan says it goes published → draft", async () => {
    gemini.script({ json: MODEL });
    const [result] = await translateFiles(settings, {
      contentDir: dir,
      files: ["posts/inside.md"],
      to: "ar",
      force: true,
    });
    expect(result).toMatchObject({ action: "written", file: "posts/inside.ar.md", unpublishes: true });
    expect(await arabicFiles()).toEqual(["inside.ar.md", "inside.md"]);
    const { items, issues } = await readContent(dir);
    expect(issues).toEqual([]);
    const arabic = items.find((i) => i.slug === "inside" && i.locale === "ar")!;
    expect(arabic).toMatchObject({ format: "markdown", draft: true });
    expect(arabic.body).toContain("مسودة الآلة.");

    const plan = await push(backend.services, { contentDir: dir, lockPath: lock(), dryRun: true });
    const entry = plan.items.find((i) => i.slug === "inside" && i.locale === "ar")!;
    expect(entry).toMatchObject({ action: "update", state: { from: "published", to: "draft" } });
    const line = plainLine({ type: "item", result: entry, done: 1, total: 1 }, true);
    expect(line).toContain("(published → draft: unpublishes ar)");
  });

  it("leaves a version written by a person (no translation: map) alone without --force", async () => {
    await writeFile(path.join(dir, "posts/own.md"), ENGLISH("English words."));
    await writeFile(
      path.join(dir, "posts/own.ar.md"),
      "---\ntitle: خاص\nexcerpt: نص.\nauthorName: إنسان\n---\nكلمات عربية.\n",
    );
    await writeFile(path.join(dir, "posts/own.md"), ENGLISH("Other English words."));
    const [result] = await translateFiles(settings, { contentDir: dir, files: ["posts/own.md"], to: "ar" });
    expect(result).toMatchObject({ action: "skipped", file: "posts/own.ar.md" });
    expect(result!.reason).toMatch(/written by a person.*--force/);
  });
});
