/**
 * The raw side of the emulator benchmark: the SQL the embedded server runs for a list query, recorded from
 * its own code, replayed in a plain better-sqlite3 loop; and bulk seeding of a collection through the
 * server's own insert (for the 100,000-document run, where seeding over HTTP would take minutes).
 */
import Database from "better-sqlite3";
import { findCollection, findDatabase, type CollectionRecord } from "../../../embedded-appwrite/db/catalog.ts";
import { insertDocument } from "../../../embedded-appwrite/db/documents.ts";
import { runList } from "../../../embedded-appwrite/db/list.ts";
import { Store } from "../../../embedded-appwrite/db/store.ts";
import { nowDatetime } from "../../../embedded-appwrite/datetime.ts";
import { compileDocumentQueries, documentListSpec } from "../../../embedded-appwrite/services/document-list.ts";

/** One recorded statement: its SQL, bound values, and how the server fetched it. */
interface Step {
  sql: string;
  params: unknown[];
  all: boolean;
  raw: boolean;
}

/**
 * The statements `listDocuments` runs for `queries` (the server's `documentListSpec` +
 * `compileDocumentQueries` + `runList`, as an API key lists), recorded on a read-only connection to `dbFile`.
 * Throws when the database or collection does not exist.
 */
function recordList(db: Database.Database, databaseId: string, collectionId: string, queries: string[]): Step[] {
  const steps: Step[] = [];
  const recording = {
    cached: (_key: string, load: () => unknown) => load(),
    read: (fn: () => unknown) => fn(),
    stmt: (sql: string) => {
      const statement = db.prepare(sql);
      let raw = false;
      const handle = {
        raw: (on = true) => ((raw = on), handle),
        get: (...params: unknown[]) => (
          steps.push({ sql, params, all: false, raw }),
          statement.raw(raw).get(...params)
        ),
        all: (...params: unknown[]) => (steps.push({ sql, params, all: true, raw }), statement.raw(raw).all(...params)),
      };
      return handle;
    },
  } as unknown as Store;
  const database = findDatabase(recording, databaseId);
  const collection = database && findCollection(recording, database, collectionId);
  if (!collection) throw new Error(`benchmark collection ${databaseId}/${collectionId} not found`);
  steps.length = 0;
  const { queries: compiled } = compileDocumentQueries(collection, queries);
  runList(recording, documentListSpec(collection, []), compiled, true);
  return steps;
}

/**
 * Replays the recorded statements of one list in a loop for `seconds`: prepared once, each list in one
 * transaction and with the row mode the server uses (as `Store.read` runs it), i.e. the fastest plain
 * better-sqlite3 loop of the same SQL. Returns lists per second, CPU µs per list and the SQL.
 */
export function rawListLoop(
  dbFile: string,
  databaseId: string,
  collectionId: string,
  queries: string[],
  seconds: number,
): { perSecond: number; cpu: number; statements: string[] } {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  const steps = recordList(db, databaseId, collectionId, queries);
  const plan = steps.map((s) => ({ statement: db.prepare(s.sql).raw(s.raw), params: s.params, all: s.all }));
  const once = db.transaction(() => {
    for (const step of plan) {
      if (step.all) step.statement.all(...step.params);
      else step.statement.get(...step.params);
    }
  });
  let count = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    once();
    count++;
  }
  const perSecond = count / ((performance.now() - start) / 1000);
  const used = process.cpuUsage(cpuStart);
  db.close();
  return {
    perSecond,
    cpu: (used.user + used.system) / count,
    statements: steps.map((s) => `${s.sql}${s.raw ? "  [array rows]" : ""}`),
  };
}

/** Documents per transaction of `seedDirect`; the event loop runs between batches. */
const SEED_BATCH = 5000;

/**
 * Inserts `count` documents made by `make(i)` into an existing collection with the server's own
 * `insertDocument` (same columns and values as `createDocument` with an API key: no permissions), in
 * transactions of 5,000 on a second connection to the server's `DATA_DIR`. Between batches the event loop
 * runs, so the SDK's pooled connections see the server's keep-alive closes instead of reusing a closed
 * socket afterwards. Resolves to documents per second.
 */
export async function seedDirect(
  dataDir: string,
  databaseId: string,
  collectionId: string,
  count: number,
  make: (i: number) => Record<string, unknown>,
): Promise<number> {
  const store = new Store(dataDir);
  try {
    const database = findDatabase(store, databaseId);
    const collection = database && findCollection(store, database, collectionId);
    if (!collection) throw new Error(`seed collection ${databaseId}/${collectionId} not found`);
    const start = performance.now();
    for (let from = 0; from < count; from += SEED_BATCH) {
      insertBatch(store, collection, from, Math.min(count, from + SEED_BATCH), make);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return count / ((performance.now() - start) / 1000);
  } finally {
    store.close();
  }
}

function insertBatch(
  store: Store,
  collection: CollectionRecord,
  from: number,
  to: number,
  make: (i: number) => Record<string, unknown>,
): void {
  store.transaction(() => {
    for (let i = from; i < to; i++) {
      const now = nowDatetime();
      insertDocument(store, collection, {
        // By index: ID.unique()'s 7 random hex digits collide now and then over 100,000 ids made in a few ms each.
        id: `seed${i}`,
        createdAt: now,
        updatedAt: now,
        permissions: [],
        data: make(i),
      });
    }
  });
}
