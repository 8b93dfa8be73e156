import { documentTable } from "../db/catalog.ts";
import type { CollectionRecord } from "../db/catalog.ts";
import { documentColumns, documentQuerySchema, findDocumentSql } from "../db/documents.ts";
import type { Condition, ListSpec } from "../db/list.ts";
import type { Store } from "../db/store.ts";
import { compileQueries } from "../queries.ts";
import type { CompiledQueries, QuerySchema } from "../queries.ts";
import { fromColumn } from "../values.ts";
import { RowJsonMemo } from "./document-json.ts";
import type { ListNames } from "./document-json.ts";

/** A document list row in raw mode: `_seq, _id, _createdAt, _updatedAt, _permissions`, then each attribute. */
export type RawDocumentRow = unknown[];

/** Number of system columns before the attribute columns in `documentColumns`. */
const SYSTEM_COLUMNS = 5;
/** Most compiled query lists kept per collection record (the cache is emptied when full). */
const MAX_COMPILED = 200;

/** Queries compiled for one collection, with the converter from raw rows to Appwrite `Document` models. */
export interface CompiledDocumentQueries {
  /** The query list as its cache key (JSON of the raw queries). */
  key: string;
  queries: CompiledQueries;
  /** The `Document` model of a raw row, as `documentModel(collection, toDocument(…), queries.select)` builds it. */
  toModel: (row: RawDocumentRow) => Record<string, unknown>;
  /** The list's JSON text in each API's names, rows serialised once (`document-json.ts`). */
  lists: Readonly<Record<ListNames, RowJsonMemo>>;
}

interface Plan {
  columns: string;
  /** The list spec without a scope (API keys, collection-level readers): one object, so `runList` memoises its SQL. */
  unscoped?: ListSpec;
  schema: QuerySchema;
  compiled: Map<string, CompiledDocumentQueries>;
  /** Row text memos by selection and names: query lists that select the same fields share one. */
  memos: Map<string, RowJsonMemo>;
}

/**
 * Collection records are immutable and replaced when the schema changes (`Store.cached`), so
 * everything derived from one (column list, query schema, compiled queries) is memoised by its identity.
 */
const plans = new WeakMap<CollectionRecord, Plan>();

function planFor(collection: CollectionRecord): Plan {
  let plan = plans.get(collection);
  if (!plan) {
    plan = {
      columns: documentColumns(collection),
      schema: documentQuerySchema(collection),
      compiled: new Map(),
      memos: new Map(),
    };
    plans.set(collection, plan);
  }
  return plan;
}

/**
 * The converter of raw rows to `Document` models: system fields first, then the attributes in
 * collection order, limited to `select` unless it is absent or holds `*` (same fields, order and values
 * as `documentModel` in `document-input.ts`).
 */
function modelConverter(
  collection: CollectionRecord,
  select: readonly string[] | undefined,
): (row: RawDocumentRow) => Record<string, unknown> {
  const all = !select || select.includes("*");
  const kept = collection.attributes
    .map((attribute, i) => ({ attribute, index: SYSTEM_COLUMNS + i }))
    .filter(({ attribute }) => all || select.includes(attribute.key));
  const { id: collectionId, databaseId } = collection;
  return (row) => {
    const model: Record<string, unknown> = {
      $id: row[1],
      $sequence: String(row[0]),
      $collectionId: collectionId,
      $databaseId: databaseId,
      $createdAt: row[2],
      $updatedAt: row[3],
      $permissions: JSON.parse(row[4] as string) as string[],
    };
    for (const { attribute, index } of kept) model[attribute.key] = fromColumn(attribute, row[index]);
    return model;
  };
}

function freeze(q: CompiledQueries): CompiledQueries {
  for (const part of [q.where, q.params, q.orders, q.select]) if (part) Object.freeze(part);
  return Object.freeze(q);
}

/**
 * Compile the `queries` request parameter for `collection` (`compileQueries` against its
 * `documentQuerySchema`), memoised per collection record and query list: a repeated list query is
 * parsed once. The result is frozen (shared between requests). Throws what `compileQueries` throws
 * (400 `general_query_invalid`, 405 `general_not_implemented`); failures are not memoised.
 */
export function compileDocumentQueries(
  collection: CollectionRecord,
  rawQueries: readonly string[],
): CompiledDocumentQueries {
  const plan = planFor(collection);
  const key = JSON.stringify(rawQueries);
  let compiled = plan.compiled.get(key);
  if (!compiled) {
    const queries = freeze(compileQueries(rawQueries, plan.schema));
    const toModel = modelConverter(collection, queries.select);
    const memo = (names: ListNames) => {
      const key = JSON.stringify([names, queries.select ?? null]);
      let found = plan.memos.get(key);
      if (!found) {
        found = new RowJsonMemo(toModel, names);
        plan.memos.set(key, found);
      }
      return found;
    };
    compiled = { key, queries, toModel, lists: { documents: memo("documents"), rows: memo("rows") } };
    if (plan.compiled.size >= MAX_COMPILED) plan.compiled.clear();
    plan.compiled.set(key, compiled);
  }
  return compiled;
}

/**
 * What `runList` needs to list `collection`'s documents as raw rows (`RawDocumentRow`), with `scope`
 * (e.g. the permission filter) added to every query.
 */
export function documentListSpec(collection: CollectionRecord, scope: Condition[]): ListSpec {
  const plan = planFor(collection);
  if (scope.length === 0 && plan.unscoped) return plan.unscoped;
  const spec: ListSpec = {
    table: documentTable(collection.seq),
    columns: plan.columns,
    idColumn: "_id",
    seqColumn: "_seq",
    scope,
    noun: "Document",
    raw: true,
  };
  if (scope.length === 0) plan.unscoped = Object.freeze(spec);
  return spec;
}

/**
 * Document `id` of `collection` as a raw row (`RawDocumentRow`: the columns of `documentColumns`, as a list
 * reads them), or `undefined`; `CompiledDocumentQueries.lists` turn it into the reply's JSON text.
 */
export function findDocumentRow(store: Store, collection: CollectionRecord, id: string): RawDocumentRow | undefined {
  return store.stmt(findDocumentSql(collection)).raw(true).get(id) as RawDocumentRow | undefined;
}

/** The `$permissions` of a raw row (its JSON column parsed). */
export function rowPermissions(row: RawDocumentRow): string[] {
  return JSON.parse(row[4] as string) as string[];
}
