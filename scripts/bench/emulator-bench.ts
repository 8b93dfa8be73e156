/**
 * Benchmark of the embedded Appwrite-compatible server (issue #3 item 8). The emulator runs in its own
 * process (as any Appwrite does) on a fresh temporary DATA_DIR; a collection gets 10,000 documents and a
 * key index on (category, rank). Printed, best of the alternating rounds:
 *  1. `listDocuments` with `equal("category")` + `orderDesc("rank")` + `limit(25)` at 10 concurrent callers:
 *     through node-appwrite (client and server share the machine), and with autocannon sending the exact
 *     URL and headers the SDK sends (the server's own rate);
 *  2. the same two SQL statements the server runs for it (count + page), in a raw better-sqlite3 loop on
 *     the emulator's SQLite file opened read-only (`lib/emulator-raw.ts`), and the HTTP/raw ratio;
 *  3. `createDocument` throughput at 1 and 10 concurrent callers;
 *  4. the same list as `listRows` through TablesDB (the same store behind `/v1/tablesdb`), via node-appwrite
 *     and autocannon, beside the `listDocuments` figures;
 *  5. the same list on a collection of 100,000 documents (seeded with the server's own insert, `seedDirect`):
 *     autocannon and the raw loop;
 *  6. `createRows` (TablesDB bulk create, 100 rows per call, one commit per call) in rows/s at 1 caller,
 *     beside `createDocument`.
 * The figures of issue #18 item 5 are printed beside their targets (HTTP/raw ≥ 50 %, ≥ 2,000 req/s at
 * 100,000 documents), with the CPU per list; the exit code is 1 when one is missed.
 *
 * Run: `npx tsx scripts/bench/emulator-bench.ts [seconds=10] [rounds=3]`
 * Set EMULATOR_BENCH_PROF=<dir> to write a V8 CPU profile of the emulator process there, and
 * EMULATOR_BENCH_SERVER=<checkout> to measure another checkout's server (`lib/emulator-child.ts`).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, Databases, DatabasesIndexType, ID, Query, TablesDB } from "node-appwrite";
import { captureListRequest, processCpuSeconds, startChild } from "./lib/emulator-child.ts";
import { rawListLoop, seedDirect } from "./lib/emulator-raw.ts";

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 3);
const DOCS = 10_000;
const LARGE_DOCS = 100_000;
/** Issue #18 item 5: the HTTP list at ≥ 50 % of the raw loop, and ≥ 2,000 req/s at 100,000 documents. */
const TARGET_RATIO = 50;
const TARGET_LARGE_RATE = 2000;
const CATEGORIES = 50;
const CONCURRENCY = 10;
/** Rows per `createRows` call (Appwrite's batch limit). */
const BATCH = 100;
const DB = "bench";
const queries = [Query.equal("category", "cat-7"), Query.orderDesc("rank"), Query.limit(25)];

function document(i: number): Record<string, unknown> {
  return {
    category: `cat-${i % CATEGORIES}`,
    rank: (i * 7919) % 100_000,
    title: `Document number ${i} of the benchmark`,
    summary: `A short summary for document ${i}. `.repeat(5),
  };
}

async function index(databases: Databases, collectionId: string): Promise<void> {
  const base = { databaseId: DB, collectionId, key: "category_rank", attributes: ["category", "rank"] };
  await databases.createIndex({ ...base, type: DatabasesIndexType.Key });
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

/** autocannon against `request`; `cpu` is the server's (`serverPid`) CPU time per answered request in µs. */
async function autocannon(request: { url: string; headers: IncomingHttpHeaders }, serverPid: number) {
  const skip = new Set(["host", "connection", "content-length"]);
  const headerArgs = Object.entries(request.headers)
    .filter(([name]) => !skip.has(name))
    .flatMap(([name, value]) => ["-H", `${name}=${String(value)}`]);
  const args = ["-c", String(CONCURRENCY), "-d", String(seconds), "-j", ...headerArgs, request.url];
  const cpuBefore = processCpuSeconds(serverPid);
  const child = spawn(path.join("node_modules", ".bin", "autocannon"), args, { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  const cpuSeconds = processCpuSeconds(serverPid) - cpuBefore;
  const result = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpu = (cpuSeconds / result.requests.total) * 1e6;
  return { perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu };
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
    await schema(databases, "large");
    const seed = await load(CONCURRENCY, { count: DOCS }, (i) =>
      databases.createDocument({ databaseId: DB, collectionId: "items", documentId: ID.unique(), data: document(i) }),
    );
    await index(databases, "items");
    const largeSeed = await seedDirect(dataDir, DB, "large", LARGE_DOCS, document);
    await index(databases, "large");
    const request = await captureListRequest(target, DB, queries, "items");
    const largeRequest = await captureListRequest(target, DB, queries, "large");
    const rowsRequest = await captureListRequest(target, DB, queries, "items", "rows");
    const tablesDb = new TablesDB(client);
    const check = await databases.listDocuments({ databaseId: DB, collectionId: "items", queries });
    console.log(`emulator benchmark: ${fmt(DOCS)} documents (seeded at ${fmt(seed.perSecond)} docs/s, 10 callers)`);
    console.log(`  and ${fmt(LARGE_DOCS)} in "large" (seeded by the server's insert at ${fmt(largeSeed)} docs/s)`);
    console.log(`list query: ${queries.join(" ")} → ${check.documents.length} of ${check.total}`);
    console.log(`round length ${seconds} s, best of ${rounds} alternating rounds\n`);

    const best = {
      sdk: { perSecond: 0, p50: 0, p99: 0 },
      cannon: { perSecond: 0, p50: 0, p99: 0 },
      rowsSdk: { perSecond: 0, p50: 0, p99: 0 },
      rowsCannon: { perSecond: 0, p50: 0, p99: 0 },
      raw: 0,
      large: { perSecond: 0, p50: 0, p99: 0 },
      largeRaw: 0,
      // CPU µs per list (least of the rounds): the server's per HTTP request, the raw loop's per list.
      cpu: { server: Infinity, raw: Infinity, largeServer: Infinity, largeRaw: Infinity },
      c1: 0,
      c10: 0,
      bulk: 0,
    };
    let statements: string[] = [];
    for (let round = 1; round <= rounds; round++) {
      const sdk = await load(CONCURRENCY, { duration: seconds }, () =>
        databases.listDocuments({ databaseId: DB, collectionId: "items", queries }),
      );
      const cannon = await autocannon(request, child.pid ?? 0);
      const rowsSdk = await load(CONCURRENCY, { duration: seconds }, () =>
        tablesDb.listRows({ databaseId: DB, tableId: "items", queries }),
      );
      const rowsCannon = await autocannon(rowsRequest, child.pid ?? 0);
      const dbFile = path.join(dataDir, "emulator.sqlite");
      const rawQueries = queries.map((query) => query.toString());
      const raw = rawListLoop(dbFile, DB, "items", rawQueries, seconds);
      statements = raw.statements;
      const large = await autocannon(largeRequest, child.pid ?? 0);
      const largeRaw = rawListLoop(dbFile, DB, "large", rawQueries, seconds);
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
          `100k: autocannon ${fmt(large.perSecond)} req/s, raw ${fmt(largeRaw.perSecond)} q/s, ` +
          `createRows ${fmt(bulk)} rows/s`,
      );
      if (sdkFigures.perSecond > best.sdk.perSecond) best.sdk = sdkFigures;
      if (cannon.perSecond > best.cannon.perSecond) best.cannon = cannon;
      if (rowsFigures.perSecond > best.rowsSdk.perSecond) best.rowsSdk = rowsFigures;
      if (rowsCannon.perSecond > best.rowsCannon.perSecond) best.rowsCannon = rowsCannon;
      best.raw = Math.max(best.raw, raw.perSecond);
      if (large.perSecond > best.large.perSecond) best.large = large;
      best.largeRaw = Math.max(best.largeRaw, largeRaw.perSecond);
      best.cpu = {
        server: Math.min(best.cpu.server, cannon.cpu),
        raw: Math.min(best.cpu.raw, raw.cpu),
        largeServer: Math.min(best.cpu.largeServer, large.cpu),
        largeRaw: Math.min(best.cpu.largeRaw, largeRaw.cpu),
      };
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
    console.log(`\nlistDocuments on ${fmt(LARGE_DOCS)} documents, ${CONCURRENCY} connections (best round):`);
    console.log(line("autocannon, the SDK's request", best.large));
    console.log(`  ${"raw better-sqlite3, same SQL".padEnd(34)} ${fmt(best.largeRaw).padStart(7)} q/s`);
    console.log("\nCPU per list (least of the rounds; on a shared machine steadier than req/s):");
    for (const [docs, server, raw] of [
      [DOCS, best.cpu.server, best.cpu.raw],
      [LARGE_DOCS, best.cpu.largeServer, best.cpu.largeRaw],
    ] as const) {
      console.log(
        `  ${fmt(docs).padStart(7)} docs: server ${fmt(server)} µs per HTTP request, raw loop ${fmt(raw)} µs per list, ` +
          `raw/server ${fmt((raw / server) * 100, 1)} %, one core ≈ ${fmt(1e6 / server)} req/s`,
      );
    }
    const ratio = (http: number, raw: number) => (http / raw) * 100;
    const figures: [name: string, value: number, target: number, unit: string][] = [
      [`list HTTP / raw, ${fmt(DOCS)} docs`, ratio(best.cannon.perSecond, best.raw), TARGET_RATIO, "%"],
      [`list HTTP / raw, ${fmt(LARGE_DOCS)} docs`, ratio(best.large.perSecond, best.largeRaw), TARGET_RATIO, "%"],
      [`list req/s, ${fmt(LARGE_DOCS)} docs`, best.large.perSecond, TARGET_LARGE_RATE, "req/s"],
    ];
    console.log("\nissue #18 item 5 (autocannon, 10 connections; raw = same SQL, one transaction per list):");
    for (const [name, figure, target, unit] of figures) {
      const met = figure >= target;
      const value = `${fmt(figure, unit === "%" ? 1 : 0)} ${unit}`;
      console.log(
        `  ${name.padEnd(34)} ${value.padStart(11)}   target ≥ ${fmt(target)} ${unit}   ${met ? "met" : "NOT met"}`,
      );
      if (!met) process.exitCode = 1;
    }
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
