/**
 * studio round 3 (issue #34), in-process: `status` (lifecycle per version, `--check` naming each failure,
 * `--fail-on unreviewed`), `preview` (AI-draft rules only for generated drafts, status's translation state,
 * the staged copy of an Arabic file published whole), `generate --image` keeping the text when the image
 * fails, and where the embedded server's data lives.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkStaged, runPreview, stagedFrontMatter } from "../../cli/commands/preview.ts";
import { runStatus } from "../../cli/commands/status.ts";
import { resolveDataDir } from "../../cli/project-root.ts";
import { generateDraftFile } from "../../lib/ai/generate-file.ts";
import { versionsOf } from "../../lib/content/siblings.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { startFakeGemini } from "../helpers/fake-gemini.ts";
import { copyFixtureContent, startBackend } from "../helpers/stack.ts";

let dir: string;
let out: string[];
let err: string[];
let json: Record<string, unknown>[];

const AR = (extra = "") => `---
title: مرحبا بالعالم
excerpt: أول منشور تجريبي.
authorName: فريق التحرير
${extra}translation:
  sourceLocale: en
  sourceHash: ${"a".repeat(64)}
  model: human
  reviewed: true
---

## لماذا

فقرة قصيرة.
`;

beforeEach(async () => {
  dir = await copyFixtureContent();
  out = [];
  err = [];
  json = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void out.push(String(line)));
  vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    const text = String(chunk);
    if (text.startsWith("{")) {
      for (const line of text.trim().split("\n")) json.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    }
    return write(chunk);
  });
});
afterEach(() => vi.restoreAllMocks());

const NOW = Date.parse("2026-06-01T00:00:00Z");

describe("studio status", () => {
  it("shows draft / scheduled / published per version with the time; a scheduled post is not 'published'", async () => {
    const second = path.join(dir, "posts/second-post.md");
    await writeFile(
      second,
      (await readFile(second, "utf8")).replace(/publishedDate: .*/, "publishedDate: 2027-01-01T09:00:00Z"),
    );
    expect(await runStatus({ dir, json: true, now: NOW })).toBe(0);
    const rows = json.filter((l) => l.type === "translation");
    expect(rows.find((r) => r.slug === "second-post" && r.locale === "en")).toMatchObject({
      lifecycle: "scheduled",
      publishAt: "2027-01-01T09:00:00.000Z",
      published: false,
    });
    expect(rows.find((r) => r.slug === "hello-world" && r.locale === "en")).toMatchObject({
      lifecycle: "published",
      publishAt: "2026-03-14T00:00:00.000Z",
      published: true,
    });
    expect(rows.find((r) => r.slug === "work-in-progress" && r.locale === "en")).toMatchObject({ lifecycle: "draft" });

    json.length = 0;
    expect(await runStatus({ dir, columns: 120, now: NOW })).toBe(0);
    expect(out.join("\n")).toMatch(/post second-post +en +up-to-date +scheduled 2027-01-01 09:00 UTC/);
  });

  it("--check names each failing version and why, in human output and NDJSON; --fail-on unreviewed adds those", async () => {
    await writeFile(path.join(dir, "posts/hello-world.ar.md"), AR()); // reviewed, but against another source: stale
    expect(await runStatus({ dir, check: true, now: NOW })).toBe(1);
    const failing = err.join("\n");
    expect(failing).toContain("post hello-world (ar, posts/hello-world.ar.md): stale:");
    expect(failing).toContain("post second-post (ar, posts/second-post.ar.md): missing: no ar version");

    expect(await runStatus({ dir, check: true, json: true, now: NOW })).toBe(1);
    expect(json.filter((l) => l.type === "failing")).toContainEqual(
      expect.objectContaining({ slug: "hello-world", locale: "ar", state: "stale", file: "posts/hello-world.ar.md" }),
    );
    expect(json.at(-1)).toMatchObject({ type: "result", failing: expect.any(Number) });
  });

  it("--fail-on unreviewed fails an unreviewed machine translation that --check alone lets through", async () => {
    for (const slug of ["hello-world", "second-post"]) {
      await writeFile(
        path.join(dir, `posts/${slug}.ar.md`),
        AR()
          .replace(/ {2}sourceHash: .*\n/, "")
          .replace("reviewed: true", "reviewed: false"),
      );
    }
    // No sourceHash: stale; give each the source's hash so that it is only unreviewed.
    expect(await runStatus({ dir, json: true, now: NOW })).toBe(0);
    const hashes = json.filter((l) => l.type === "translation" && l.locale === "ar" && l.where);
    for (const row of hashes) {
      const file = path.join(dir, String(row.where));
      const text = (await readFile(file, "utf8")).replace(
        "  model: human",
        `  sourceHash: ${String(row.sourceHash)}\n  model: human`,
      );
      await writeFile(file, text);
    }
    err.length = 0;
    await runStatus({ dir, check: true, now: NOW }); // (the ventures have no Arabic version: those fail anyway)
    expect(err.join("\n")).not.toContain("unreviewed:");
    err.length = 0;
    expect(await runStatus({ dir, check: true, failOn: ["unreviewed"], now: NOW })).toBe(1);
    expect(err.join("\n")).toContain(
      "post hello-world (ar, posts/hello-world.ar.md): unreviewed: a machine translation",
    );
  });
});

describe("studio preview", () => {
  it("does not hold a human post to the AI-draft content rules (exit 0 without a blockquote)", async () => {
    const file = path.join(dir, "posts/second-post.md"); // no blockquote, no list: fine for a person's post
    expect(await runPreview(file, { interactive: false })).toBe(0);
    expect(out.join("\n")).toContain("✓ valid");
    const generated = path.join(dir, "posts/generated.md");
    await writeFile(
      generated,
      (await readFile(file, "utf8")).replace(
        "---\n## Second",
        "generated:\n  model: m\n  date: 2026-03-01\n  topic: t\n---\n## Second",
      ),
    );
    expect(await runPreview(generated, { interactive: false })).toBe(1);
    expect(out.join("\n")).toMatch(/✗ content rule: /);
  });

  it("shows the translation state status gives the version (stale, not 'reviewed true')", async () => {
    await writeFile(path.join(dir, "posts/hello-world.ar.md"), AR());
    await runPreview(path.join(dir, "posts/hello-world.ar.md"), { interactive: false });
    expect(out.join("\n")).toMatch(/status +stale: the source changed/);
    await runPreview(path.join(dir, "posts/hello-world.ar.md"), { interactive: false, json: true });
    expect(json.at(-1)).toMatchObject({ type: "result", translationState: "stale" });
  });

  it("--web stages both versions of an Arabic file as published, with what it inherits, and they publish", async () => {
    await writeFile(path.join(dir, "posts/hello-world.ar.md"), AR("draft: true\n"));
    const versions = await versionsOf("post", path.join(dir, "posts/hello-world.ar.md"));
    expect(versions.map((v) => v.locale)).toEqual(["en", "ar"]);
    const ar = stagedFrontMatter(versions[1]!, new Date(NOW));
    expect(ar.draft).toBeUndefined();
    expect(ar.publishedDate).toEqual(new Date("2026-03-14T00:00:00Z"));

    const backend = await startBackend();
    try {
      const { mkdir, writeFile: write } = await import("node:fs/promises");
      const { serializeContentFile } = await import("../../lib/content/write.ts");
      const staged = await mkdtemp(path.join(tmpdir(), "staged-"));
      await mkdir(path.join(staged, "posts"));
      for (const v of versions) {
        const fm = { ...stagedFrontMatter(v, new Date(NOW)), featuredImage: undefined };
        await write(path.join(staged, "posts", path.basename(v.file)), serializeContentFile("post", fm, v.body));
      }
      const result = await push(backend.services, { contentDir: staged });
      expect(() => checkStaged(result)).not.toThrow();
      const rows = (
        await backend.services.tablesDB.listRows({ databaseId: DATABASE_ID, tableId: CONTENT_MODEL.post.collectionId })
      ).rows;
      expect(rows.map((r) => `${r.locale}:${r.status}`).sort()).toEqual(["ar:published", "en:published"]);
    } finally {
      await backend.close();
    }
  });

  it("a staged copy that does not publish stops with the reason (exit 1), not a silent 404", () => {
    const issues = [{ file: "posts/x.ar.md", field: "publishedDate", message: "is missing" }];
    expect(() => checkStaged({ issues, items: [], failed: 1 })).toThrow(/posts\/x\.ar\.md: publishedDate: is missing/);
  });
});

describe("studio generate --image", () => {
  it("keeps the text draft when the image step fails, and says why", async () => {
    const gemini = await startFakeGemini();
    try {
      gemini.script(
        {
          json: {
            title: "Why Small Agencies Win",
            slug: "why-small-agencies-win",
            excerpt: "Focus beats size.",
            content: "<h2>Focus</h2><p>One job.</p><ul><li>a</li></ul><blockquote>Small is fast.</blockquote>",
          },
        },
        { status: 503, error: "image model overloaded" },
      );
      const settings = { apiKey: "k", textModel: "t", imageModel: "i", baseUrl: gemini.baseUrl, timeoutMs: 5000 };
      const result = await generateDraftFile(settings, {
        contentDir: dir,
        kind: "post",
        topic: "agencies",
        image: true,
      });
      expect(result.image).toBeNull();
      expect(result.imageError).toBeDefined();
      expect(await readFile(path.join(dir, result.file), "utf8")).toContain("title: Why Small Agencies Win");
    } finally {
      await gemini.close();
    }
  });
});

describe("where the embedded server's data lives", () => {
  it("outside the project folder, a relative DATA_DIR is refused (exit 3) and nothing is created", async () => {
    const outside = await mkdtemp(path.join(tmpdir(), "not-a-project-"));
    expect(() => resolveDataDir(".data", outside)).toThrow(expect.objectContaining({ exitCode: 3 }));
    expect(existsSync(path.join(outside, ".data"))).toBe(false);
  });

  it("below the project folder, a relative DATA_DIR is the project folder's", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    expect(resolveDataDir(".data", path.join(root, "content", "posts"))).toBe(path.join(root, ".data"));
  });
});
