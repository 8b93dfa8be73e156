/**
 * The page query of an emulator list carries its LIMIT as a literal (`db/list.ts`): SQLite plans with the
 * value of a bound LIMIT, so rebinding it expired the cached statement and every list re-prepared its SQL
 * (issue #18 item 5). A limit that is not a safe integer stays bound; the offset always is. Lists with
 * different limits on one store each get their own rows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runList } from "../../embedded-appwrite/db/list.ts";
import type { ListSpec } from "../../embedded-appwrite/db/list.ts";
import { Store } from "../../embedded-appwrite/db/store.ts";
import type { CompiledQueries } from "../../embedded-appwrite/queries.ts";

const dir = mkdtempSync(join(tmpdir(), "emulator-list-sql-"));
const store = new Store(dir);
store.exec("CREATE TABLE items (seq INTEGER PRIMARY KEY, id TEXT NOT NULL)");
for (let i = 1; i <= 30; i++) store.stmt("INSERT INTO items (seq, id) VALUES (?, ?)").run(i, `item-${i}`);

afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const spec: ListSpec = {
  table: "items",
  columns: "seq, id",
  idColumn: "id",
  seqColumn: "seq",
  scope: [],
  noun: "Item",
};

function queries(limit: number, offset: number): CompiledQueries {
  return { where: [], params: [], orders: [], random: false, limit, offset };
}

/** The SQL and bound values of the page statement `runList` runs (the count is off). */
function pageStatement(q: CompiledQueries): { sql: string; params: unknown[] } {
  const seen: { sql: string; params: unknown[] }[] = [];
  const recording = {
    stmt: (sql: string) => {
      const handle = { raw: () => handle, all: (...params: unknown[]) => (seen.push({ sql, params }), []) };
      return handle;
    },
  } as unknown as Store;
  runList(recording, spec, q, false);
  expect(seen).toHaveLength(1);
  return seen[0] as { sql: string; params: unknown[] };
}

describe("list page SQL", () => {
  it("given a limit, then it is written into the SQL and only the offset is bound", () => {
    const { sql, params } = pageStatement(queries(25, 50));
    expect(sql).toMatch(/ LIMIT 25 OFFSET \?$/);
    expect(params).toEqual([50]);
  });

  it("given a limit past the safe integers, then it stays a bound value", () => {
    const { sql, params } = pageStatement(queries(2 ** 60, 0));
    expect(sql).toMatch(/ LIMIT \? OFFSET \?$/);
    expect(params).toEqual([2 ** 60, 0]);
  });

  it("given lists with different limits and offsets on one store, then each gets its own page", () => {
    const ids = (limit: number, offset: number) =>
      runList<{ id: string }>(store, spec, queries(limit, offset), true).rows.map((row) => row.id);
    expect(ids(2, 0)).toEqual(["item-1", "item-2"]);
    expect(ids(3, 1)).toEqual(["item-2", "item-3", "item-4"]);
    expect(ids(2, 28)).toEqual(["item-29", "item-30"]);
    expect(runList(store, spec, queries(5, 0), true).total).toBe(30);
  });
});
