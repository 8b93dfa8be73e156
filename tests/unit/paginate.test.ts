import { describe, expect, it } from "vitest";
import { listAll, PAGE_SIZE } from "../../lib/appwrite/paginate.ts";

/** A fake list endpoint over `total` items that reads `limit` and `cursorAfter` from the queries. */
function endpoint(total: number) {
  const items = Array.from({ length: total }, (_, i) => ({ $id: `id${i}` }));
  const calls: string[][] = [];
  const fetchPage = async (queries: string[]) => {
    calls.push(queries);
    const parsed = queries.map((q) => JSON.parse(q) as { method: string; values: unknown[] });
    const limit = Number(parsed.find((q) => q.method === "limit")!.values[0]);
    const after = parsed.find((q) => q.method === "cursorAfter")?.values[0];
    const start = after === undefined ? 0 : items.findIndex((item) => item.$id === after) + 1;
    return items.slice(start, start + limit);
  };
  return { fetchPage, calls };
}

describe("cursor pagination", () => {
  it("reads every item across pages, each page after the last id of the one before", async () => {
    const { fetchPage, calls } = endpoint(2 * PAGE_SIZE + 5);
    const all = await listAll(fetchPage, { queries: ['{"method":"orderAsc","values":["x"]}'] });
    expect(all.map((item) => item.$id)).toEqual(Array.from({ length: 2 * PAGE_SIZE + 5 }, (_, i) => `id${i}`));
    expect(calls).toHaveLength(3);
    expect(calls[1]).toContain(`{"method":"cursorAfter","values":["id${PAGE_SIZE - 1}"]}`);
    expect(calls.every((queries) => queries[0] === '{"method":"orderAsc","values":["x"]}')).toBe(true);
  });

  it("stops at max, asking for no more than it needs", async () => {
    const { fetchPage, calls } = endpoint(500);
    expect(await listAll(fetchPage, { max: 3 })).toHaveLength(3);
    expect(calls).toEqual([['{"method":"limit","values":[3]}']]);
  });

  it("asks once more after an exactly full last page, and stops on the empty one", async () => {
    const { fetchPage, calls } = endpoint(PAGE_SIZE);
    expect(await listAll(fetchPage)).toHaveLength(PAGE_SIZE);
    expect(calls).toHaveLength(2);
  });
});
