/**
 * Benchmark of the embedded Appwrite-compatible server (issue #3 item 8). The emulator runs in its own
 * process (as any Appwrite does) on a fresh temporary DATA_DIR; a collection gets 10,000 documents and a
 * key index on (category, rank). Printed, best of the alternating rounds:
 *  1. `listDocuments` with `equal("category")` + `orderDesc("rank")` + `limit(25)` at 10 concurrent callers:
 *     through node-appwrite (client and server share the machine), and with autocannon sending the exact
 *     URL and headers the SDK sends (the server's own rate);
 *  2. the same two SQL statements the server runs for it (count + page), in a raw better-sqlite3 loop on
 *     the emulator's SQLite file opened read-only, and the HTTP/raw ratio;
 *  3. `createDocument` throughput at 1 and 10 concurrent callers;
 *  4. the same list as `listRows` through TablesDB (the same store behind `/v1/tablesdb`), via node-appwrite
 *     and autocannon, beside the `listDocuments` figures;
 *  5. `createRows` (TablesDB bulk create, 100 rows per call, one commit per call) in rows/s at 1 caller,
 *     beside `createDocument`.
 *
 * Run: `npx tsx scripts/bench/emulator-bench.ts [seconds=10] [rounds=3]`
 * Set EMULATOR_BENCH_PROF=<dir> to write a V8 CPU profile of the emulator process there.
 */
import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, Databases, DatabasesIndexType, ID, Query, TablesDB } from "node-appwrite";
import { findCollection, findDatabase } from "../../emulator/db/catalog.ts";
import { documentColumns, documentQuerySchema } from "../../emulator/db/documents.ts";
import { runList } from "../../emulator/db/list.ts";
import type { Store } from "../../emulator/db/store.ts";
import { documentTable } from "../../emulator/db/catalog.ts";
import { compileQueries } from "../../emulator/queries.ts";

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 3);
const DOCS = 10_000;
const CATEGORIES = 50;
const CONCURRENCY = 10;
/** Rows per `createRows` call (Appwrite's batch limit). */
const BATCH = 100;
const DB = "bench";
const queries = [Query.equal("category", "cat-7"), Query.orderDesc("rank"), Query.limit(25)];

interface Target {
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/** Starts `emulator/main.ts` in a child process on a free port (as push-bench does) and reads its endpoint. */
async function startChild(dataDir: string): Promise<{ child: ChildProcess; target: Target }> {
  const prof = process.env["EMULATOR_BENCH_PROF"];
  const flags = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [];
  const child = spawn(process.execPath, [...flags, "--import", "tsx", "emulator/main.ts"], {
    env: { ...process.env, DATA_DIR: dataDir, EMULATOR_PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const target = await new Promise<Target>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(out)?.[1];
      const [endpoint, projectId, apiKey] = [field("endpoint"), field("project id"), field("API key")];
      if (endpoint && projectId && apiKey) resolve({ endpoint, projectId, apiKey });
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before it was ready`)));
  });
  return { child, target };
}

function document(i: number): Record<string, unknown> {
  return {
    category: `cat-${i % CATEGORIES}`,
    rank: (i * 7919) % 100_000,
    title: `Document number ${i} of the benchmark`,
    summary: `A short summary for document ${i}. `.repeat(5),
  };
}

async function schema(databases: Databases, collectionId: string): Promise<void> {
  await databases.createCollection({ databaseId: DB, collectionId, name: collectionId });
  const base = { databaseId: DB, collectionId };
  await databases.createStringAttribute({ ...base, key: "category", size: 32, required: true });
  await databases.createIntegerAttribute({ ...base, key: "rank", required: true });
  await databases.createStringAttribute({ ...base, key: "title", size: 100, required: true });
  await databases.createStringAttribute({ ...base, key: "summary", size: 500, required: false });
}

/** Runs `task` from `workers` concurrent loops for `duration` s (or `count` calls); returns latencies in ms. */
async function load(
  workers: number,
  limit: { duration?: number; count?: number },
  task: (i: number) => Promise<unknown>,
): Promise<{ perSecond: number; latencies: number[] }> {
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + (limit.duration ?? Infinity) * 1000;
  let next = 0;
  const worker = async () => {
    while (performance.now() < end && next < (limit.count ?? Infinity)) {
      const i = next++;
      const t = performance.now();
      await task(i);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { perSecond: latencies.length / ((performance.now() - start) / 1000), latencies };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The URL and headers node-appwrite sends for the benchmark's list call, captured by a stub server. */
async function captureListRequest(
  target: Target,
  collectionId: string,
  api: "documents" | "rows" = "documents",
): Promise<{ url: string; headers: IncomingHttpHeaders }> {
  let seen: { url: string; headers: IncomingHttpHeaders } | undefined;
  const stub = createServer((req, res) => {
    seen = { url: req.url ?? "", headers: req.headers };
    res.writeHead(200, { "content-type": "application/json" }).end('{"total":0,"documents":[]}');
  });
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  const stubEndpoint = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
  const client = new Client().setEndpoint(stubEndpoint).setProject(target.projectId).setKey(target.apiKey);
  if (api === "rows") await new TablesDB(client).listRows({ databaseId: DB, tableId: collectionId, queries });
  else await new Databases(client).listDocuments({ databaseId: DB, collectionId, queries });
  stub.close();
  if (!seen) throw new Error("the SDK sent nothing");
  return { url: new URL(target.endpoint).origin + seen.url, headers: seen.headers };
}

/** autocannon (its own process) at 10 connections against the captured request. */
async function autocannon(request: { url: string; headers: IncomingHttpHeaders }) {
  const skip = new Set(["host", "connection", "content-length"]);
  const headerArgs = Object.entries(request.headers)
    .filter(([name]) => !skip.has(name))
    .flatMap(([name, value]) => ["-H", `${name}=${String(value)}`]);
  const args = ["-c", String(CONCURRENCY), "-d", String(seconds), "-j", ...headerArgs, request.url];
  const child = spawn(path.join("node_modules", ".bin", "autocannon"), args, { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  const result = JSON.parse(out) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * The SQL the server runs for the benchmark query (recorded from the emulator's own `runList` on a
 * read-only connection), then run in a plain loop of prepared statements for `seconds`.
 */
function rawLoop(dbFile: string, collectionId: string): { perSecond: number; statements: string[] } {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  const recorded: { sql: string; params: unknown[]; all: boolean }[] = [];
  const recording = {
    cached: (_key: string, load: () => unknown) => load(),
    stmt: (sql: string) => {
      const statement = db.prepare(sql);
      return {
        get: (...params: unknown[]) => (recorded.push({ sql, params, all: false }), statement.get(...params)),
        all: (...params: unknown[]) => (recorded.push({ sql, params, all: true }), statement.all(...params)),
      };
    },
  } as unknown as Store;
  const database = findDatabase(recording, DB);
  const collection = database && findCollection(recording, database, collectionId);
  if (!collection) throw new Error("benchmark collection not found");
  recorded.length = 0;
  const q = compileQueries(
    queries.map((query) => query.toString()),
    documentQuerySchema(collection),
  );
  const spec = {
    table: documentTable(collection.seq),
    columns: documentColumns(collection),
    idColumn: "_id",
    seqColumn: "_seq",
    scope: [],
    noun: "Document",
  };
  runList(recording, spec, q, true);
  const plan = recorded.map((r) => ({ statement: db.prepare(r.sql), params: r.params, all: r.all }));
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (const step of plan) {
      if (step.all) step.statement.all(...step.params);
      else step.statement.get(...step.params);
    }
    count++;
  }
  const perSecond = count / ((performance.now() - start) / 1000);
  db.close();
  return { perSecond, statements: recorded.map((r) => r.sql) };
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits });

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "emulator-bench-"));
  const { child, target } = await startChild(dataDir);
  try {
    const client = new Client().setEndpoint(target.endpoint).setProject(target.projectId).setKey(target.apiKey);
    const databases = new Databases(client);
    await databases.create({ databaseId: DB, name: "Bench" });
    await schema(databases, "items");
    await schema(databases, "writes");
    const seed = await load(CONCURRENCY, { count: DOCS }, (i) =>
      databases.createDocument({ databaseId: DB, collectionId: "items", documentId: ID.unique(), data: document(i) }),
    );
    await databases.createIndex({
      databaseId: DB,
      collectionId: "items",
      key: "category_rank",
      type: DatabasesIndexType.Key,
      attributes: ["category", "rank"],
    });
    const request = await captureListRequest(target, "items");
    const rowsRequest = await captureListRequest(target, "items", "rows");
    const tablesDb = new TablesDB(client);
    const check = await databases.listDocuments({ databaseId: DB, collectionId: "items", queries });
    console.log(`emulator benchmark: ${fmt(DOCS)} documents (seeded at ${fmt(seed.perSecond)} docs/s, 10 callers)`);
    console.log(`list query: ${queries.join(" ")} → ${check.documents.length} of ${check.total}`);
    console.log(`round length ${seconds} s, best of ${rounds} alternating rounds\n`);

    const best = {
      sdk: { perSecond: 0, p50: 0, p99: 0 },
      cannon: { perSecond: 0, p50: 0, p99: 0 },
      rowsSdk: { perSecond: 0, p50: 0, p99: 0 },
      rowsCannon: { perSecond: 0, p50: 0, p99: 0 },
      raw: 0,
      c1: 0,
      c10: 0,
      bulk: 0,
    };
    let statements: string[] = [];
    for (let round = 1; round <= rounds; round++) {
      const sdk = await load(CONCURRENCY, { duration: seconds }, () =>
        databases.listDocuments({ databaseId: DB, collectionId: "items", queries }),
      );
      const cannon = await autocannon(request);
      const rowsSdk = await load(CONCURRENCY, { duration: seconds }, () =>
        tablesDb.listRows({ databaseId: DB, tableId: "items", queries }),
      );
      const rowsCannon = await autocannon(rowsRequest);
      const raw = rawLoop(path.join(dataDir, "emulator.sqlite"), "items");
      statements = raw.statements;
      const write = (workers: number) =>
        load(workers, { duration: seconds / 2 }, (i) =>
          databases.createDocument({
            databaseId: DB,
            collectionId: "writes",
            documentId: ID.unique(),
            data: document(i),
          }),
        );
      const c1 = await write(1);
      const c10 = await write(CONCURRENCY);
      const batches = await load(1, { duration: seconds / 2 }, (i) =>
        tablesDb.createRows({
          databaseId: DB,
          tableId: "writes",
          rows: Array.from({ length: BATCH }, (_, k) => document(i * BATCH + k)),
        }),
      );
      const bulk = batches.perSecond * BATCH;
      const sdkFigures = {
        perSecond: sdk.perSecond,
        p50: percentile(sdk.latencies, 50),
        p99: percentile(sdk.latencies, 99),
      };
      const rowsFigures = {
        perSecond: rowsSdk.perSecond,
        p50: percentile(rowsSdk.latencies, 50),
        p99: percentile(rowsSdk.latencies, 99),
      };
      console.log(
        `round ${round}: list via SDK ${fmt(sdkFigures.perSecond)} req/s, autocannon ${fmt(cannon.perSecond)} req/s, ` +
          `listRows via SDK ${fmt(rowsFigures.perSecond)} req/s, autocannon ${fmt(rowsCannon.perSecond)} req/s, ` +
          `raw SQLite ${fmt(raw.perSecond)} q/s, create ${fmt(c1.perSecond)} / ${fmt(c10.perSecond)} docs/s, ` +
          `createRows ${fmt(bulk)} rows/s`,
      );
      if (sdkFigures.perSecond > best.sdk.perSecond) best.sdk = sdkFigures;
      if (cannon.perSecond > best.cannon.perSecond) best.cannon = cannon;
      if (rowsFigures.perSecond > best.rowsSdk.perSecond) best.rowsSdk = rowsFigures;
      if (rowsCannon.perSecond > best.rowsCannon.perSecond) best.rowsCannon = rowsCannon;
      best.raw = Math.max(best.raw, raw.perSecond);
      best.c1 = Math.max(best.c1, c1.perSecond);
      best.c10 = Math.max(best.c10, c10.perSecond);
      best.bulk = Math.max(best.bulk, bulk);
    }
    const line = (name: string, f: { perSecond: number; p50: number; p99: number }) =>
      `  ${name.padEnd(34)} ${fmt(f.perSecond).padStart(7)} req/s   p50 ${fmt(f.p50, 2)} ms   p99 ${fmt(f.p99, 2)} ms`;
    console.log(`\nlistDocuments, ${CONCURRENCY} concurrent callers (best round):`);
    console.log(line("node-appwrite SDK (same machine)", best.sdk));
    console.log(line("autocannon, the SDK's request", best.cannon));
    console.log(`  ${"raw better-sqlite3, same SQL".padEnd(34)} ${fmt(best.raw).padStart(7)} q/s`);
    console.log(`  ratio HTTP (autocannon) / raw: ${fmt((best.cannon.perSecond / best.raw) * 100, 1)} %`);
    console.log(`  ratio SDK / raw:               ${fmt((best.sdk.perSecond / best.raw) * 100, 1)} %`);
    console.log(`  SQL: ${statements.join("\n       ")}`);
    console.log(`\nlistRows (TablesDB, same table and query), ${CONCURRENCY} concurrent callers (best round):`);
    console.log(line("node-appwrite SDK (same machine)", best.rowsSdk));
    console.log(line("autocannon, the SDK's request", best.rowsCannon));
    console.log(`\ncreateDocument through the SDK (synchronous=FULL, one commit per document):`);
    console.log(`  1 caller:   ${fmt(best.c1)} docs/s`);
    console.log(`  ${CONCURRENCY} callers: ${fmt(best.c10)} docs/s`);
    console.log(`createRows (TablesDB bulk, ${BATCH} rows per call, one commit per call), 1 caller:`);
    console.log(`  ${fmt(best.bulk)} rows/s`);
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
