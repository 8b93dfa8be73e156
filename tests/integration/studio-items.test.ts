/**
 * studio round 3 (issue #34), in-process: `push|pull <file|slug>…` act on the named items only (both language
 * versions), a conflict names the differing fields and `studio diff`, `diff` shows both versions in words,
 * `pull` keeps `generated:` and writes files `format --check` accepts, a typo'd folder is a warning.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runDiff } from "../../cli/commands/diff.ts";
import { runPull } from "../../cli/commands/pull.ts";
import { runPush } from "../../cli/commands/push.ts";
import type { CommandContext } from "../../cli/context.ts";
import type { AppConfig } from "../../lib/config.ts";
import { formatContent } from "../../lib/content/format.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let dir: string;
let out: string[];
let err: string[];

const AR = `---
title: مرحبا بالعالم
excerpt: أول منشور تجريبي.
authorName: فريق التحرير
translation:
  sourceLocale: en
  model: human
  translatedAt: 2026-03-15T10:00:00.399Z
  reviewed: false
---

## لماذا

فقرة قصيرة.
`;

function context(): CommandContext {
  return {
    config: {} as AppConfig,
    services: backend.services,
    embedded: false,
    interactive: false,
    lockPath: () => path.join(dir, "studio-lock.json"),
    exportDir: (override) => override ?? path.join(tmpdir(), "studio-items-exports"),
    close: async () => {},
  };
}

beforeEach(async () => {
  backend = await startBackend();
  dir = await copyFixtureContent();
  await writeFile(path.join(dir, "posts/hello-world.ar.md"), AR);
  out = [];
  err = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void out.push(String(line)));
  vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await backend.close();
});

async function posts() {
  const page = await backend.services.tablesDB.listRows({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL.post.collectionId,
  });
  return page.rows;
}
async function adminEdit(slug: string, locale: string, data: Record<string, unknown>) {
  const row = (await posts()).find((p) => p.slug === slug && (p.locale ?? "en") === locale)!;
  await backend.services.tablesDB.updateRow({
    databaseId: DATABASE_ID,
    tableId: CONTENT_MODEL.post.collectionId,
    rowId: row.$id,
    data,
  });
}

describe("studio push <file|slug>…", () => {
  it("pushes the named item only, both language versions, when given one version's file", async () => {
    const code = await runPush(context(), { dir, items: [path.join(dir, "posts/hello-world.ar.md")] });
    expect(code).toBe(0);
    const pushed = (await posts()).map((p) => `${p.slug}:${p.locale}`).sort();
    expect(pushed).toEqual(["hello-world:ar", "hello-world:en"]);
    expect(out.join("\n")).toContain("created post hello-world (ar, posts/hello-world.ar.md)");
    expect(out.join("\n")).not.toMatch(/second-post|work-in-progress/);
  });

  it("takes a slug, and refuses a name that matches nothing (exit 2) without writing", async () => {
    await expect(runPush(context(), { dir, items: ["no-such-post"] })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining("no-such-post"),
    });
    expect(await posts()).toHaveLength(0);
    expect(await runPush(context(), { dir, items: ["second-post"] })).toBe(0);
    expect((await posts()).map((p) => p.slug)).toEqual(["second-post"]);
  });

  it("a conflict names the fields that differ and the diff command; diff shows both in words", async () => {
    expect(await runPush(context(), { dir, items: ["hello-world"] })).toBe(0);
    await adminEdit("hello-world", "ar", { title: "مرحبا بالمختبر" });
    await writeFile(path.join(dir, "posts/hello-world.ar.md"), AR.replace("فقرة قصيرة.", "فقرة أطول قليلا."));
    out.length = 0;
    expect(await runPush(context(), { dir, items: ["hello-world"] })).toBe(4);
    const conflict = out.find((l) => l.includes("conflict post hello-world (ar"))!;
    expect(conflict).toMatch(/fields that differ: [^;]*title/);
    expect(conflict).toContain(`see both: studio diff ${dir}/posts/hello-world.ar.md`);

    out.length = 0;
    expect(await runDiff(context(), path.join(dir, "posts/hello-world.ar.md"), {})).toBe(0);
    const shown = out.join("\n");
    expect(shown).toContain("title:");
    expect(shown).toContain("مرحبا [-بالمختبر-]{+بالعالم+}");
    expect(shown).toMatch(/\{\+أطول قليلا\+\}|\[-قصيرة-\]/);
  });
});

describe("studio pull <file|slug>…", () => {
  it("pulls the named item only; keeps generated: and writes timestamps format --check accepts", async () => {
    const generated = "generated:\n  model: gemini-2.5-flash\n  date: 2026-03-01T08:00:00.000Z\n  topic: hello\n";
    const english = path.join(dir, "posts/hello-world.md");
    await writeFile(english, (await readFile(english, "utf8")).replace("---\n## Why", `${generated}---\n## Why`));
    expect(await runPush(context(), { dir })).toBe(0);
    await adminEdit("hello-world", "en", { excerpt: "Edited in the admin." });
    await adminEdit("hello-world", "ar", { excerpt: "عدلت في لوحة الإدارة." });
    await adminEdit("second-post", "en", { excerpt: "Not asked for." });

    expect(await runPull(context(), { dir, items: ["posts/hello-world.md"] })).toBe(0);
    // Only the excerpt changed: both files stay Markdown (issue #30 item 5).
    const en = await readFile(path.join(dir, "posts/hello-world.md"), "utf8");
    expect(en).toContain("Edited in the admin.");
    expect(en).toContain("generated:\n  model: gemini-2.5-flash");
    const ar = await readFile(path.join(dir, "posts/hello-world.ar.md"), "utf8");
    expect(ar).toContain("translatedAt: 2026-03-15T10:00:00.399Z");
    expect(await readFile(path.join(dir, "posts/second-post.md"), "utf8")).not.toContain("Not asked for.");
    const check = await formatContent(dir, { check: true, files: ["posts/hello-world.ar.md"] });
    expect(check.changed).toEqual([]);
  });
});

describe("a typo'd folder", () => {
  it("is reported by push, naming the folder and the folders that are read", async () => {
    await mkdir(path.join(dir, "post"));
    await rename(path.join(dir, "posts/second-post.md"), path.join(dir, "post/second-post.md"));
    await mkdir(path.join(dir, "events"));
    await writeFile(path.join(dir, "events/launch.md"), "---\ntitle: Launch\n---\n\nText.\n");
    expect(await runPush(context(), { dir })).toBe(0);
    const warnings = err.join("\n");
    expect(warnings).toMatch(
      /post\/second-post\.md: file: ignored: post\/ is not a content folder \(the folders read are ventures\/, posts\//,
    );
    expect(warnings).toContain("did you mean posts/?");
    expect(warnings).toMatch(/events\/launch\.md: file: ignored: events\/ is not a content folder/);
  });
});
