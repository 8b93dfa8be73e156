import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { PushView } from "../../cli/views/push-view.tsx";
import type { PushItemResult, PushResult } from "../../lib/publish/push.ts";

const item = (slug: string, action: PushItemResult["action"], extra: Partial<PushItemResult> = {}): PushItemResult => ({
  kind: "post",
  slug,
  file: `posts/${slug}.md`,
  action,
  changes: [],
  status: "done",
  ...extra,
});

describe("PushView", () => {
  it("shows validation counts and progress while pushing", () => {
    const { lastFrame } = render(
      <PushView
        state={{
          validated: { type: "validated", valid: 3, invalid: 1, drafts: 1 },
          total: 3,
          done: 1,
          lines: [item("a", "create")],
          batch: 1,
        }}
      />,
    );
    expect(lastFrame()).toContain("3 publishable, 1 invalid, 1 draft(s)");
    expect(lastFrame()).toContain("+ post a");
    expect(lastFrame()).toMatch(/█+░+ 1\/3/);
  });

  it("shows changed fields, failures and the final summary", () => {
    const results = [
      item("b", "update", { changes: ["excerpt"] }),
      item("d", "create", { status: "failed", error: "boom" }),
      item("c", "unchanged"),
    ];
    const result: PushResult = {
      created: 0,
      updated: 1,
      unchanged: 1,
      deleted: 0,
      skipped: 0,
      conflicts: 0,
      failed: 1,
      items: results,
      issues: [],
      drafts: [],
      dryRun: false,
      exported: null,
      tracked: 0,
    };
    const { lastFrame } = render(<PushView state={{ total: 3, done: 3, lines: results, batch: 1, result }} />);
    expect(lastFrame()).toContain("~ post b en (excerpt)");
    expect(lastFrame()).toContain("✗ post d en boom");
    expect(lastFrame()).not.toContain("post c");
    expect(lastFrame()).toContain("0 created, 1 updated, 1 unchanged, 0 deleted, 0 skipped, 0 conflict(s), 1 failed");
  });

  it("shows conflicts and skipped items with what to do", () => {
    const results = [
      item("c", "conflict", { reason: "changed in Appwrite since the last push" }),
      item("gone", "skip", { file: null, reason: "pass --prune to delete it" }),
    ];
    const { lastFrame } = render(
      <PushView state={{ total: results.length, done: results.length, lines: results, batch: 1 }} />,
    );
    expect(lastFrame()).toContain("! post c en changed in Appwrite since the last push");
    expect(lastFrame()).toContain("· post gone en pass --prune to delete it");
  });

  it("says where the export before deleting went and how to undo it", () => {
    const results = [item("gone", "delete", { file: null })];
    const exported = { type: "exported" as const, path: "/d/exports/prune-x.json", documents: 1, files: 1, bytes: 10 };
    const { lastFrame } = render(<PushView state={{ total: 1, done: 1, lines: results, batch: 1, exported }} />);
    expect(lastFrame()).toMatch(
      /Exported 1 item\(s\) and 1 image\(s\) before deleting:\n {2}\/d\/exports\/prune-x\.json\n/,
    );
    expect(lastFrame()).toContain("undo with: studio restore /d/exports/prune-x.json");
  });
});
