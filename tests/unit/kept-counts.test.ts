/**
 * Counts past Appwrite's 5,000 `total` cap are kept a while (issue #18 item 3: a blog of 10,000 posts must not
 * probe offsets on every render), and a blog page that disagrees with a kept count recounts at once, so a
 * post added or removed meanwhile never makes a page 404 or come out empty.
 */
import { describe, expect, it } from "vitest";
import { KeptCounts, countKey, countRows, readItemPage } from "../../lib/appwrite/content-pages.ts";
import type { ContentReader } from "../../lib/appwrite/content-store.ts";

/** A guest reader over `rows()` posts (one English version each, newest first), counting its requests. */
function fakeReader(rows: () => number) {
  const reader = {
    calls: 0,
    /** The offset of each request (0 for one after a cursor). */
    offsets: [] as number[],
    tablesDB: {
      listRows: async ({ queries }: { queries: string[] }) => {
        reader.calls++;
        const parsed = queries.map((q) => JSON.parse(q) as { method: string; values?: unknown[] });
        const value = (method: string) => parsed.find((q) => q.method === method)?.values?.[0];
        const cursor = value("cursorAfter");
        // Oldest first when the list's first order is ascending (`listOrder(kind, true)`): row i from the end.
        const reversed = parsed.find((q) => q.method.startsWith("order"))?.method === "orderAsc";
        const n = rows();
        const at = (id: unknown) => Number(String(id).slice(1));
        const from = cursor === undefined ? Number(value("offset") ?? 0) : reversed ? n - at(cursor) : at(cursor) + 1;
        reader.offsets.push(cursor === undefined ? from : 0);
        const limit = Number(value("limit") ?? 25);
        const page = Array.from({ length: Math.max(0, Math.min(limit, n - from)) }, (_, i) => {
          const row = reversed ? n - 1 - (from + i) : from + i;
          return { $id: `r${row}`, slug: `post-${row}`, locale: "en" };
        });
        return { total: Math.min(n, 5000), rows: page };
      },
    },
  };
  return reader as typeof reader & ContentReader;
}

describe("counts past Appwrite's cap", () => {
  it("are probed once, then kept until they are older than the max age", async () => {
    let now = 0;
    const kept = new KeptCounts(10_000, () => now);
    const reader = fakeReader(() => 12_345);
    expect(await countRows(reader, "post", [], undefined, kept)).toBe(12_345);
    const probes = reader.calls;
    expect(probes).toBeGreaterThan(10);

    reader.calls = 0;
    now = 9_999;
    expect(await countRows(reader, "post", [], 5000, kept)).toBe(12_345);
    expect(reader.calls).toBe(0);

    now = 10_000;
    // Expired, the count is answered at once and checked in the background where it was: a row at 12,344 and
    // none at 12,345 (issue #33 item 6).
    expect(await countRows(reader, "post", [], 5000, kept)).toBe(12_345);
    await kept.pending(countKey("post", []));
    expect(reader.calls).toBe(2);
  });

  it("are found again from the count kept before, in a few probes, when rows were added or removed", async () => {
    let now = 0;
    let n = 200_000;
    const kept = new KeptCounts(10_000, () => now);
    const reader = fakeReader(() => n);
    expect(await countRows(reader, "post", [], undefined, kept)).toBe(200_000);
    const full = reader.calls;
    let before = 200_000;
    for (const changed of [200_030, 199_001, 5_001, 250_000]) {
      n = changed;
      now += 10_000;
      reader.calls = 0;
      // The expired count first, the new one once the background search is done.
      expect(await countRows(reader, "post", [], undefined, kept)).toBe(before);
      await kept.pending(countKey("post", []));
      expect(await countRows(reader, "post", [], undefined, kept)).toBe(changed);
      if (Math.abs(changed - before) < 1000) expect(reader.calls).toBeLessThan(full);
      before = changed;
    }
  });

  it("are searched once for requests arriving together, not once each (issue #33 item 6)", async () => {
    const kept = new KeptCounts(10_000);
    const reader = fakeReader(() => 200_000);
    const once = fakeReader(() => 200_000);
    await countRows(once, "post", [], 5000, new KeptCounts(10_000));
    const counts = await Promise.all(Array.from({ length: 5 }, () => countRows(reader, "post", [], 5000, kept)));
    expect(counts).toEqual([200_000, 200_000, 200_000, 200_000, 200_000]);
    expect(reader.calls).toBe(once.calls);
  });

  it("are not kept under the cap, where Appwrite's total is exact", async () => {
    const kept = new KeptCounts(10_000);
    let n = 4_000;
    const reader = fakeReader(() => n);
    expect(await countRows(reader, "post", [], undefined, kept)).toBe(4_000);
    n = 4_100;
    expect(await countRows(reader, "post", [], undefined, kept)).toBe(4_100);
  });
});

describe("a blog page read with a kept count", () => {
  const rowsPerPage = 24;

  it("recounts when posts were added past the kept count, so the new last page exists", async () => {
    let n = 6_000; // 250 pages
    const kept = new KeptCounts(60_000);
    const reader = fakeReader(() => n);
    expect((await readItemPage(reader, "post", "en", 1, rowsPerPage, kept))?.pages).toBe(250);

    n = 6_030; // 252 pages, while the kept count still says 6,000
    const last = await readItemPage(reader, "post", "en", 252, rowsPerPage, kept);
    expect(last?.pages).toBe(252);
    expect(last?.items.map((i) => i.slug)).toEqual([
      "post-6024",
      "post-6025",
      "post-6026",
      "post-6027",
      "post-6028",
      "post-6029",
    ]);
    expect((await readItemPage(reader, "post", "en", 1, rowsPerPage, kept))?.pages).toBe(252);
  });

  it("recounts when posts were removed, so a page past the new last one is missing, not empty", async () => {
    let n = 6_000;
    let now = 0;
    const kept = new KeptCounts(60_000, () => now);
    const reader = fakeReader(() => n);
    expect((await readItemPage(reader, "post", "en", 250, rowsPerPage, kept))?.items).toHaveLength(24);

    n = 5_970; // 249 pages
    // While the count is kept, a last page is read from the list's end: never empty.
    expect((await readItemPage(reader, "post", "en", 250, rowsPerPage, kept))?.items.at(-1)?.slug).toBe("post-5969");
    now = 60_000;
    expect(await readItemPage(reader, "post", "en", 250, rowsPerPage, kept)).toBeNull();
    expect((await readItemPage(reader, "post", "en", 1, rowsPerPage, kept))?.pages).toBe(249);
  });

  it("reads a page in the list's second half from its end: the last of 200,000 rows skips none (issue #33 item 6)", async () => {
    const kept = new KeptCounts(60_000);
    const reader = fakeReader(() => 200_000);
    expect((await readItemPage(reader, "post", "en", 1, rowsPerPage, kept))?.pages).toBe(8_334);
    reader.offsets.length = 0;
    const last = await readItemPage(reader, "post", "en", 8_334, rowsPerPage, kept);
    expect(last?.items.map((i) => i.slug)).toEqual([
      "post-199992",
      "post-199993",
      "post-199994",
      "post-199995",
      "post-199996",
      "post-199997",
      "post-199998",
      "post-199999",
    ]);
    expect(Math.max(...reader.offsets)).toBe(0);
    reader.offsets.length = 0;
    const before = await readItemPage(reader, "post", "en", 8_333, rowsPerPage, kept);
    expect(before?.items[0]?.slug).toBe("post-199968");
    expect(before?.items).toHaveLength(24);
    expect(Math.max(...reader.offsets)).toBeLessThan(100);
  });
});
