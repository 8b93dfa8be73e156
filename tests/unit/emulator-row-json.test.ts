/**
 * `RowJsonMemo` (`embedded-appwrite/services/document-json.ts`): a list's bytes are `toJson` of the list object; a
 * row's text is reused only while all its values are the same, and a memo holds a bounded number of bytes
 * (a row larger than the bound is written but not kept).
 */
import { describe, expect, it } from "vitest";
import { toJson } from "../../embedded-appwrite/http/respond.ts";
import { RowJsonMemo } from "../../embedded-appwrite/services/document-json.ts";

/** A stand-in for `toModel`: `_seq, _id, title` → a small model, counting its calls. */
function counting() {
  const calls = { n: 0 };
  const model = (row: unknown[]) => {
    calls.n++;
    return { $id: row[1], $sequence: String(row[0]), $collectionId: "c", title: row[2] };
  };
  return { calls, model };
}

describe("RowJsonMemo", () => {
  it("given rows, then the list is toJson of the list object, in either API's names", () => {
    const rows = [
      [1, "a", 'Quote " é 😀 \u2028'],
      [2, "b", null],
    ];
    for (const names of ["documents", "rows"] as const) {
      const { model } = counting();
      const memo = new RowJsonMemo(model, names);
      const models = rows.map(model);
      const renamed = models.map(({ $collectionId, ...rest }) =>
        names === "rows"
          ? { $id: rest.$id, $sequence: rest.$sequence, $tableId: $collectionId, title: rest.title }
          : { $collectionId, ...rest },
      );
      const expected = names === "rows" ? toJson({ total: 7, rows: renamed }) : toJson({ total: 7, documents: models });
      expect(memo.list(7, rows).toString()).toBe(expected);
      expect(memo.list(7, []).toString()).toBe(toJson({ total: 7, [names]: [] }));
    }
  });

  it("given the same row again, then its text is reused; given a changed value, then it is written again", () => {
    const { calls, model } = counting();
    const memo = new RowJsonMemo(model, "documents");
    const first = memo.bytes([1, "a", "Title"]);
    expect(memo.bytes([1, "a", "Title"])).toBe(first);
    expect(calls.n).toBe(1);
    const changed = memo.bytes([1, "a", "New title"]);
    expect(changed.toString()).toContain("New title");
    expect(calls.n).toBe(2);
    expect(memo.bytes([1, "a", "New title"])).toBe(changed);
  });

  it("given a row larger than a memo holds, then it is written every time and never kept", () => {
    const { calls, model } = counting();
    const memo = new RowJsonMemo(model, "documents");
    const huge = [1, "a", "x".repeat(5 * 1024 * 1024)];
    expect(memo.bytes(huge).length).toBeGreaterThan(5 * 1024 * 1024);
    memo.bytes(huge);
    expect(calls.n).toBe(2);
  });
});
