/**
 * studio round 3 (issue #34), what a terminal user reads: plan lines, summaries, Ctrl-C, conflicts, status at
 * 40 columns, help at 40 columns, word diffs of Arabic, the Ink view's keys, npm start's lines.
 */
import { planTime } from "../../lib/publish/plan.ts";
import { Command } from "commander";
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { plainLine, summaryLine } from "../../cli/commands/push.ts";
import { helpLayout } from "../../cli/help-layout.ts";
import { interruptedLines } from "../../cli/interrupt.ts";
import { conflictDetail } from "../../cli/output.ts";
import { failingLines, statusLines } from "../../cli/status-table.ts";
import { PushView } from "../../cli/views/push-view.tsx";
import { pushedLines, readyLines } from "../../launcher/start-report.ts";
import type { PushItemResult, PushResult } from "../../lib/publish/push.ts";
import { isoInstant, keptLocalKeys } from "../../lib/publish/pull-front-matter.ts";
import { nearestFolder } from "../../lib/content/stray-folders.ts";
import { renderWordDiff, wordDiff } from "../../lib/text/word-diff.ts";
import type { StatusRow } from "../../lib/translate/content-status.ts";

const item = (slug: string, action: PushItemResult["action"], extra: Partial<PushItemResult> = {}): PushItemResult => ({
  kind: "post",
  slug,
  file: `posts/${slug}.md`,
  action,
  changes: [],
  status: "done",
  ...extra,
});
const event = (result: PushItemResult, done = 1, total = 2) => ({ type: "item" as const, result, done, total });
const summary = (extra: Partial<PushResult>): PushResult => ({
  created: 2,
  updated: 1,
  unchanged: 5,
  deleted: 0,
  skipped: 0,
  conflicts: 0,
  failed: 0,
  items: [],
  issues: [],
  drafts: [],
  dryRun: false,
  exported: null,
  tracked: 0,
  ...extra,
});

afterEach(() => vi.restoreAllMocks());

describe("push's plain lines", () => {
  it("name each language version and its state change; a dry run says what it would do", () => {
    const ar = item("x", "update", {
      locale: "ar",
      file: "posts/x.ar.md",
      changes: ["status"],
      state: { from: "published", to: "draft" },
    });
    expect(plainLine(event(ar), true)).toBe(
      "[1/2] would update post x (ar, posts/x.ar.md) [status] (published → draft: unpublishes ar)",
    );
    expect(plainLine(event(item("x", "create")), true)).toBe("[1/2] would create post x (en, posts/x.md)");
    expect(plainLine(event(item("x", "create")), false)).toBe("[1/2] created post x (en, posts/x.md)");
  });

  it("say in words what a push does to visibility (issue #29): publishes, schedules with the zone, keeps a draft", () => {
    const create = (state: PushItemResult["state"], extra: Partial<PushItemResult> = {}) =>
      plainLine(event(item("x", "create", { state, ...extra })), true);
    expect(create({ from: null, to: "published" })).toBe("[1/2] would create post x (en, posts/x.md) (publishes en)");
    expect(create({ from: null, to: "scheduled", at: "2026-12-01 09:00 Asia/Riyadh" }, { locale: "ar" })).toBe(
      "[1/2] would create post x (ar, posts/x.md) (schedules ar for 2026-12-01 09:00 Asia/Riyadh)",
    );
    expect(planTime("2026-12-01T06:00:00.000+00:00", "Asia/Riyadh")).toBe("2026-12-01 09:00 Asia/Riyadh");
    expect(create({ from: null, to: "draft" })).toBe("[1/2] would create post x (en, posts/x.md) (keeps en draft)");
    const update = item("x", "update", { changes: ["status"], state: { from: "draft", to: "published" } });
    expect(plainLine(event(update), false)).toBe(
      "[1/2] updated post x (en, posts/x.md) [status] (draft → published: publishes en)",
    );
  });

  it("print no line for an unchanged item; the summary counts it", () => {
    expect(plainLine(event(item("x", "unchanged")), false)).toBeNull();
    expect(summaryLine(summary({}))).toContain("5 unchanged");
  });

  it("a dry run's summary says 'would create', not 'created'", () => {
    const line = summaryLine(summary({ dryRun: true }));
    expect(line).toMatch(/^Dry run, nothing written: would create 2, would update 1, would delete 0; 5 unchanged/);
    expect(line).not.toMatch(/\d created/);
  });

  it("a conflict lists the fields that differ and how to see both", () => {
    const conflict = item("x", "conflict", { changes: ["title", "excerpt"], reason: "changed in Appwrite" });
    expect(plainLine(event(conflict), false, "content")).toBe(
      "[1/2] conflict post x (en, posts/x.md): changed in Appwrite (fields that differ: title, excerpt; see both: studio diff content/posts/x.md)",
    );
    expect(conflictDetail(item("x", "update"), "content")).toBe("");
  });
});

describe("Ctrl-C", () => {
  it("says how many items were handled, by what, and how to finish", () => {
    const lines = interruptedLines("push", { total: 10, done: { created: 2, unchanged: 1 } });
    expect(lines[0]).toBe(
      "studio push interrupted: 3 of 10 item(s) handled (2 created, 1 unchanged); the rest was not touched.",
    );
    expect(lines[1]).toMatch(/run `studio push` again/);
  });
});

describe("the push view", () => {
  it("keys each version's row with its locale: no React duplicate-key warning for a bilingual item", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const results = [item("x", "create"), item("x", "create", { locale: "ar", file: "posts/x.ar.md" })];
    const { lastFrame } = render(<PushView state={{ total: 2, done: 2, lines: results, batch: 1 }} />);
    expect(lastFrame()).toContain("+ post x en");
    expect(lastFrame()).toContain("+ post x ar");
    expect(error.mock.calls.flat().join(" ")).not.toMatch(/same key/);
  });

  it("a dry run's summary says 'would create'", () => {
    const { lastFrame } = render(
      <PushView state={{ total: 0, done: 0, lines: [], batch: 0, result: summary({ dryRun: true }) }} />,
    );
    expect(lastFrame()).toContain("would create 2");
    expect(lastFrame()).not.toMatch(/2 created/);
  });
});

const row = (slug: string, locale: "en" | "ar", extra: Partial<StatusRow> = {}): StatusRow => ({
  kind: "post",
  slug,
  locale,
  state: "up-to-date",
  published: true,
  lifecycle: "published",
  publishAt: "2026-03-14T00:00:00.000Z",
  where: locale === "en" ? `posts/${slug}.md` : `posts/${slug}.ar.md`,
  ...extra,
});

describe("status's table", () => {
  const rows = [
    row("a-rather-long-post-slug", "en"),
    row("a-rather-long-post-slug", "ar", {
      state: "stale",
      lifecycle: "scheduled",
      publishAt: "2027-01-01T09:00:00.000Z",
    }),
  ];

  it("shows each version's lifecycle with its publish time", () => {
    const wide = statusLines(rows, 120).join("\n");
    expect(wide).toContain("published 2026-03-14 00:00 UTC");
    expect(wide).toContain("scheduled 2027-01-01 09:00 UTC");
  });

  it("fits 40 columns (no line longer, so the terminal wraps nothing)", () => {
    const lines = statusLines(rows, 40);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines.join("\n")).toContain("  ar: stale\n      scheduled 2027-01-01 09:00 UTC");
  });

  it("--check's lines name the version, its file and why", () => {
    const lines = failingLines([
      { kind: "post", slug: "x", locale: "ar", state: "stale", file: "posts/x.ar.md", reason: "its source changed" },
    ]);
    expect(lines).toEqual([
      "status --check: 1 version(s) fail:",
      "  post x (ar, posts/x.ar.md): stale: its source changed",
    ]);
  });
});

describe("help at 40 columns", () => {
  it("wraps at word boundaries: no line is longer than 40 columns and no word is cut", () => {
    const program = new Command().name("studio").configureHelp(helpLayout);
    program.configureOutput({ getOutHelpWidth: () => 40 });
    program
      .command("push")
      .option(
        "--allow-mass-delete",
        "let --prune delete more than half of the items pushed from these files (otherwise exit 2)",
      )
      .option("--export-dir <path>", "where --prune first exports what it deletes (default: DATA_DIR/exports)");
    const help = program.commands[0]!.helpInformation();
    for (const line of help.split("\n")) expect(line.length).toBeLessThanOrEqual(40);
    const text = help.replace(/\s+/g, " ");
    expect(text).toContain("let --prune delete more than half of the items pushed from these files (otherwise exit 2)");
    expect(text).toContain("where --prune first exports what it deletes (default: DATA_DIR/exports)");
  });
});

describe("studio diff's word diff", () => {
  it("cuts Arabic into words (Intl.Segmenter), so one changed word is one change", () => {
    const changes = wordDiff("مرحبا بكم في الاستوديو", "مرحبا بكم في المختبر", "ar");
    expect(changes.filter((c) => c.kind !== "same")).toEqual([
      { kind: "removed", text: "الاستوديو" },
      { kind: "added", text: "المختبر" },
    ]);
    expect(renderWordDiff(changes)).toBe("مرحبا بكم في [-الاستوديو-]{+المختبر+}");
  });
});

describe("pull's front matter", () => {
  it("writes Appwrite's datetimes as files write them (…Z)", () => {
    expect(isoInstant("2026-03-14T09:00:00.399+00:00")).toBe("2026-03-14T09:00:00.399Z");
  });

  it("keeps keys Appwrite does not store (generated:), not the managed ones", () => {
    const kept = keptLocalKeys("post", { title: "T", draft: true, generated: { model: "m" }, translation: {} });
    expect(kept).toEqual({ generated: { model: "m" } });
  });
});

describe("a typo'd folder", () => {
  it("is matched to the kinds table's folder it probably meant", () => {
    expect(nearestFolder("post", ["ventures", "posts"])).toBe("posts");
    expect(nearestFolder("events", ["ventures", "posts"])).toBeNull();
  });
});

describe("npm start's lines", () => {
  it("say what was pushed, what needs a person, the address and where the data lives", () => {
    const pushed = pushedLines(
      summary({ items: [item("x", "conflict", { reason: "changed in Appwrite" })], conflicts: 1 }),
    );
    expect(pushed).toEqual([
      "Pushed content/: 2 created, 1 updated, 5 unchanged, 1 conflict(s).",
      "  ! posts/x.md: changed in Appwrite",
    ]);
    expect(readyLines({ url: "http://localhost:3000", data: "/srv/.data", processes: 1 })).toEqual([
      "Site ready: http://localhost:3000  (English http://localhost:3000/en, Arabic http://localhost:3000/ar)",
      "Data: /srv/.data",
      "Press Ctrl-C to stop.",
    ]);
  });
});
