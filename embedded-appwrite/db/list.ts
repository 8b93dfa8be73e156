import { AppwriteError } from "../errors.ts";
import type { CompiledQueries } from "../queries.ts";
import type { Store } from "./store.ts";

/** Most rows `total` counts (AW `APP_LIMIT_COUNT`; REFERENCE §2 "Limits"). */
export const COUNT_CAP = 5000;

/** A SQL condition with its bound values. */
export interface Condition {
  sql: string;
  params: unknown[];
}

/** Where and how to list: the table, its columns, and conditions that always apply. */
export interface ListSpec {
  /** Quoted table name (validated by the caller). */
  table: string;
  /** Column list for `SELECT`. */
  columns: string;
  /** Column holding the public ID (for cursors). */
  idColumn: string;
  /** Insertion-order column: the default order and the final tie-break. */
  seqColumn: string;
  /** Conditions added to every query, e.g. the parent ID or a permission filter. */
  scope: Condition[];
  /** Noun for the cursor error, e.g. `Document`. */
  noun: string;
  /**
   * Return each row as an array of its values in `columns` order (better-sqlite3 raw mode) instead of
   * an object keyed by column name: no per-row object to build, for lists that convert rows anyway.
   */
  raw?: boolean;
}

/**
 * Run a compiled list query: filters, order (then insertion order as tie-break), cursor
 * (keyset on the order columns), offset and limit. `total` counts every match of the filters
 * and scope, ignoring cursor, limit and offset, capped at `COUNT_CAP`, or is 0 when
 * `withTotal` is false (REFERENCE §2).
 * Throws 400 `general_cursor_not_found` for an unknown cursor ID and 400
 * `database_query_order_null` when the cursor's order value is null (AW `Documents/XList.php`).
 * `Row` is the row's object type, or `unknown[]` with `spec.raw`.
 */
export function runList<Row>(
  store: Store,
  spec: ListSpec,
  q: CompiledQueries,
  withTotal: boolean,
): { rows: Row[]; total: number } {
  const baseWhere = [...spec.scope.map((c) => c.sql), ...q.where];
  const baseParams = [...spec.scope.flatMap((c) => c.params), ...q.params];
  const whereSql = baseWhere.length > 0 ? ` WHERE ${baseWhere.map((w) => `(${w})`).join(" AND ")}` : "";

  let total = 0;
  if (withTotal) {
    const countSql = `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${spec.table}${whereSql} LIMIT ${COUNT_CAP})`;
    total = (store.stmt(countSql).get(...baseParams) as { n: number }).n;
  }

  const lastDesc = q.orders.at(-1)?.desc ?? false;
  const terms = [...q.orders, { attribute: "$sequence", column: spec.seqColumn, desc: lastDesc }];
  const before = q.cursor !== undefined && !q.cursor.after;
  const effective = terms.map((t) => ({ ...t, desc: before ? !t.desc : t.desc }));

  const where = [...baseWhere];
  const params = [...baseParams];
  if (q.cursor) {
    const cursorSql = `SELECT ${terms.map((t) => t.column).join(", ")} FROM ${spec.table} WHERE ${spec.idColumn} = ?${spec.scope.map((c) => ` AND (${c.sql})`).join("")}`;
    const cursorRow = store
      .stmt(cursorSql)
      .raw(true)
      .get(q.cursor.id, ...spec.scope.flatMap((c) => c.params)) as unknown[] | undefined;
    if (!cursorRow) {
      throw new AppwriteError(
        "general_cursor_not_found",
        `${spec.noun} '${q.cursor.id}' for the 'cursor' value not found.`,
      );
    }
    if (cursorRow.some((value) => value === null)) {
      throw new AppwriteError("database_query_order_null");
    }
    if (effective.every((t) => t.desc === effective[0]!.desc)) {
      // One direction: a row value, which SQLite seeks in an index on those columns; the OR of alternatives
      // below scans every row (issue #33 item 6: the sitemap's cursor pages of 200,000 rows in slug order).
      where.push(
        `(${effective.map((t) => t.column).join(", ")}) ${effective[0]!.desc ? "<" : ">"} (${effective.map(() => "?").join(", ")})`,
      );
      params.push(...cursorRow);
    } else {
      const alternatives = effective.map((term, i) => {
        const equal = effective.slice(0, i).map((t) => `${t.column} = ?`);
        return [...equal, `${term.column} ${term.desc ? "<" : ">"} ?`].join(" AND ");
      });
      where.push(alternatives.map((a) => `(${a})`).join(" OR "));
      effective.forEach((_term, i) => params.push(...cursorRow.slice(0, i + 1)));
    }
  }

  const orderSql = q.random ? "RANDOM()" : effective.map((t) => `${t.column} ${t.desc ? "DESC" : "ASC"}`).join(", ");
  // The limit is written into the SQL: SQLite plans with a bound LIMIT's value, so rebinding one expires the
  // statement and every run prepared it again (sqlite3Reprepare, a quarter of the page query's time).
  // Limits are few (page sizes); the offset, which pages through, stays bound.
  const inline = Number.isSafeInteger(q.limit);
  const sql = `SELECT ${spec.columns} FROM ${spec.table}${where.length > 0 ? ` WHERE ${where.map((w) => `(${w})`).join(" AND ")}` : ""} ORDER BY ${orderSql} LIMIT ${inline ? String(q.limit) : "?"} OFFSET ?`;
  if (!inline) params.push(q.limit);
  params.push(q.offset);
  // Statements are shared through the store's cache by SQL text: set the row mode on every use.
  const rows = store
    .stmt(sql)
    .raw(spec.raw === true)
    .all(...params) as Row[];
  if (before) rows.reverse();
  return { rows, total };
}
