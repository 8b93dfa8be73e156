import type { Store } from "../db/store.ts";
import { AppwriteError } from "../errors.ts";
import { appWithEvents, contextWith } from "../http/context.ts";
import type { AppState, RequestContext } from "../http/context.ts";
import { EventBus } from "../realtime/bus.ts";
import type { RealtimeEvent } from "../realtime/bus.ts";
import { Router } from "../http/router.ts";
import type { Handler, Reply, RouteScope } from "../http/router.ts";
import * as attributeUpdates from "./attribute-updates.ts";
import * as attributes from "./attributes.ts";
import * as databases from "./databases.ts";
import * as documentCounters from "./document-counters.ts";
import * as documents from "./documents.ts";
import { keptRead } from "./read-cache.ts";
import { rename, ROW_KEYS, translateError } from "./tables-db-names.ts";
import {
  columnModel,
  columnPrefix,
  databaseModel,
  databaseRef,
  INDEX_KEYS,
  recordType,
  tableModel,
  typesUnder,
} from "./tables-db-types.ts";

/**
 * TablesDB (`/v1/tablesdb/…`, Appwrite 1.8+) over the same store as the legacy Databases API
 * (ARCHITECTURE decision 10): a table is a collection, a row a document, a column an attribute.
 * Each TablesDB route is answered by the legacy handler of the matching `/databases/…` path,
 * run on a private router: the request's path and body keys are renamed on the way in
 * (`tableId`→`collectionId`, `rowId`→`documentId`, `rowSecurity`→`documentSecurity`,
 * `columns`→`attributes`, `rows`→`documents`), and the reply and errors on the way out
 * (`Table`, `Column*`, `ColumnIndex`, `Row`, `RowList` models; `table_*`, `row_*`, `column_*`,
 * `column_index_*` error types). Data written through either API is seen by the other.
 *
 * What the store cannot express (a database's `tablesdb` type, a column's declared text type) is kept
 * beside it: `tables-db-types.ts`.
 */

type Json = Record<string, unknown>;

/** 1.9 text column types, stored as string attributes of this size (the store's maximum is 1 GiB). */
const TEXT_SIZES: Record<string, number> = { text: 65535, mediumtext: 16777215, longtext: 1073741824 };
const STRING_LIKE = new Set(["varchar", ...Object.keys(TEXT_SIZES)]);
const COLUMN_TYPES = ["string", "email", "url", "enum", "datetime", "integer", "float", "boolean", ...STRING_LIKE];

const BODY_KEYS: Record<string, string> = {
  tableId: "collectionId",
  rowId: "documentId",
  rowSecurity: "documentSecurity",
  columns: "attributes",
  rows: "documents",
};

type Kind =
  | "database"
  | "databaseList"
  | "table"
  | "tableList"
  | "column"
  | "columnList"
  | "index"
  | "indexList"
  | "row"
  | "rowList";

function translateReply(store: Store, kind: Kind, json: Json, params: Record<string, string>): Json {
  const prefix = columnPrefix(params["databaseId"] ?? "", params["collectionId"] ?? "");
  switch (kind) {
    case "database":
      return databaseModel(store, json);
    case "databaseList":
      return { total: json["total"], databases: (json["databases"] as Json[]).map((d) => databaseModel(store, d)) };
    case "table":
      return tableModel(store, json);
    case "tableList":
      return { total: json["total"], tables: (json["collections"] as Json[]).map((c) => tableModel(store, c)) };
    case "column":
      return columnModel(typesUnder(store, prefix), prefix, json);
    case "columnList": {
      const types = typesUnder(store, prefix);
      return {
        total: json["total"],
        columns: (json["attributes"] as Json[]).map((a) => columnModel(types, prefix, a)),
      };
    }
    case "index":
      return rename(json, INDEX_KEYS);
    case "indexList":
      return { total: json["total"], indexes: (json["indexes"] as Json[]).map((i) => rename(i, INDEX_KEYS)) };
    case "row":
      // `POST …/rows` answers a Row, or with `rows` (bulk create) a RowList.
      if (!Array.isArray(json["documents"])) return rename(json, ROW_KEYS);
      return { total: json["total"], rows: (json["documents"] as Json[]).map((d) => rename(d, ROW_KEYS)) };
    case "rowList":
      return { total: json["total"], rows: (json["documents"] as Json[]).map((d) => rename(d, ROW_KEYS)) };
  }
}

// ---- realtime -------------------------------------------------------------------------------

/**
 * The bus a legacy handler publishes on when it serves a TablesDB request: the same events
 * (both channel families), with the `Row` model as payload, as Appwrite sends the response model
 * of the route that made the change.
 */
class RowEventBus extends EventBus {
  constructor(private readonly target: EventBus) {
    super();
  }

  override publish(event: RealtimeEvent): void {
    this.target.publish({ ...event, payload: rename(event.payload, ROW_KEYS) });
  }

  override get active(): boolean {
    return this.target.active;
  }
}

const rowApps = new WeakMap<AppState, AppState>();

function rowApp(app: AppState): AppState {
  let wrapped = rowApps.get(app);
  if (!wrapped) {
    wrapped = appWithEvents(app, new RowEventBus(app.events));
    rowApps.set(app, wrapped);
  }
  return wrapped;
}

// ---- routing --------------------------------------------------------------------------------

const legacy = new Router();
for (const service of [databases, attributes, attributeUpdates, documents, documentCounters]) service.register(legacy);

/** The legacy path segments for TablesDB `segments` (still URL-encoded). */
function legacySegments(method: string, segments: readonly string[]): string[] {
  const out = [...segments];
  out[0] = "databases";
  if (out.length > 2) out[2] = "collections";
  if (out[4] === "rows") out[4] = "documents";
  if (out[4] === "columns") {
    out[4] = "attributes";
    const typed = (method === "POST" && out.length === 6) || (method === "PATCH" && out.length === 7);
    if (typed && STRING_LIKE.has(out[5] ?? "")) out[5] = "string";
  }
  return out;
}

function kindOf(method: string, segments: readonly string[]): Kind | undefined {
  const list = method === "GET";
  switch (segments.length) {
    case 1:
      return list ? "databaseList" : "database";
    case 2:
      return "database";
    case 3:
      return list ? "tableList" : "table";
    case 4:
      return "table";
    case 5:
      if (segments[4] === "columns") return "columnList";
      if (segments[4] === "indexes") return list ? "indexList" : "index";
      return method === "POST" ? "row" : "rowList";
    default:
      if (segments[4] === "columns") return "column";
      return segments[4] === "indexes" ? "index" : "row";
  }
}

function translateBody(method: string, segments: readonly string[], body: Json): Json {
  const out = rename(body, BODY_KEYS);
  const type = segments[4] === "columns" ? (segments[5] ?? "") : "";
  const size = TEXT_SIZES[type];
  if (size !== undefined && (method === "POST" || method === "PATCH")) out["size"] = size;
  return out;
}

const tablesDb: Handler = async (ctx: RequestContext): Promise<Reply> => {
  const segments = ctx.path.split("/").filter((s) => s !== "");
  const method = ctx.method;
  const path = `/${legacySegments(method, segments).join("/")}`;
  const match = legacy.match(method, path);
  const rows = segments[4] === "rows";
  let body: Promise<Json> | undefined;
  const inner = contextWith(ctx, {
    app: rows ? rowApp(ctx.app) : ctx.app,
    rowNames: rows,
    path,
    params: match.params,
    body: () => (body ??= ctx.body().then((b) => translateBody(method, segments, b))),
  });
  let reply: Reply;
  try {
    reply = await match.handler(inner);
  } catch (error) {
    throw error instanceof AppwriteError ? translateError(error) : error;
  }
  // Not JSON, or JSON text the handler wrote in TablesDB's names already (`ctx.rowNames`: row lists).
  if (!("json" in reply)) return reply;
  const json = reply.json as Json;
  const store = ctx.app.store;
  // Remember what the legacy store cannot say: a TablesDB database, a varchar/text column.
  if (method === "POST" && segments.length === 1)
    recordType(store, databaseRef(String(json["$id"])), json["$createdAt"], "tablesdb");
  const columnType = segments[4] === "columns" ? (segments[5] ?? "") : "";
  const typed = (method === "POST" && segments.length === 6) || (method === "PATCH" && segments.length === 7);
  if (typed && STRING_LIKE.has(columnType)) {
    const prefix = columnPrefix(match.params["databaseId"] ?? "", match.params["collectionId"] ?? "");
    recordType(store, prefix + String(json["key"]), json["$createdAt"], columnType);
  }
  const kind = kindOf(method, segments);
  return kind ? { ...reply, json: translateReply(store, kind, json, match.params) } : reply;
};

/** Row reads: an API key's repeated read is answered from `read-cache.ts` before any renaming or routing. */
const keptTablesDb: Handler = (ctx) => keptRead(ctx, tablesDb);

/**
 * TablesDB routes (REFERENCE §4 "TablesDB", §10): databases, tables, columns (`string`, `email`,
 * `url`, `datetime`, `integer`, `boolean` and 1.9's `varchar`, `text`, `mediumtext`, `longtext`),
 * indexes and rows, bulk rows (`POST …/rows` with `rows`, `PUT|PATCH|DELETE …/rows`, keys only) and
 * `transactionId` on row calls (the transactions themselves are `transactions.ts`'s routes). Scopes as Appwrite labels them: one of `tables.read`/`collections.read`,
 * `tables.write`/`collections.write`, `rows.read`/`documents.read`, `rows.write`/`documents.write`.
 */
export function register(router: Router): void {
  const add = (method: string, path: string, scope: RouteScope) => router.add(method, path, scope, tablesDb);
  const tablesRead: RouteScope = ["tables.read", "collections.read"];
  const tablesWrite: RouteScope = ["tables.write", "collections.write"];
  const rowsRead: RouteScope = ["rows.read", "documents.read"];
  const rowsWrite: RouteScope = ["rows.write", "documents.write"];
  const db = "/tablesdb/:databaseId";
  const table = `${db}/tables/:tableId`;
  add("POST", "/tablesdb", "databases.write");
  add("GET", "/tablesdb", "databases.read");
  add("GET", db, "databases.read");
  add("PUT", db, "databases.write");
  add("DELETE", db, "databases.write");
  add("POST", `${db}/tables`, tablesWrite);
  add("GET", `${db}/tables`, tablesRead);
  add("GET", table, tablesRead);
  add("PUT", table, tablesWrite);
  add("DELETE", table, tablesWrite);
  for (const type of COLUMN_TYPES) {
    add("POST", `${table}/columns/${type}`, tablesWrite);
    add("PATCH", `${table}/columns/${type}/:key`, tablesWrite);
  }
  add("GET", `${table}/columns`, tablesRead);
  add("GET", `${table}/columns/:key`, tablesRead);
  add("DELETE", `${table}/columns/:key`, tablesWrite);
  add("POST", `${table}/indexes`, tablesWrite);
  add("GET", `${table}/indexes`, tablesRead);
  add("GET", `${table}/indexes/:key`, tablesRead);
  add("DELETE", `${table}/indexes/:key`, tablesWrite);
  add("POST", `${table}/rows`, rowsWrite);
  router.add("GET", `${table}/rows`, rowsRead, keptTablesDb);
  add("PUT", `${table}/rows`, rowsWrite);
  add("PATCH", `${table}/rows`, rowsWrite);
  add("DELETE", `${table}/rows`, rowsWrite);
  router.add("GET", `${table}/rows/:rowId`, rowsRead, keptTablesDb);
  add("PATCH", `${table}/rows/:rowId`, rowsWrite);
  add("PUT", `${table}/rows/:rowId`, rowsWrite);
  add("DELETE", `${table}/rows/:rowId`, rowsWrite);
  add("PATCH", `${table}/rows/:rowId/:column/increment`, rowsWrite);
  add("PATCH", `${table}/rows/:rowId/:column/decrement`, rowsWrite);
}
