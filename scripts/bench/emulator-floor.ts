/**
 * The embedded server's own work (issue #33 item 4): for a list of a 10,000-row table (the emulator benchmark's
 * query: `equal("category")` + `orderDesc("rank")` + `limit(25)`), a `getRow` and a `createRow`, the server's
 * CPU per request beside its floor: the same SQL in a plain better-sqlite3 loop (the list's recorded statements;
 * `findDocument` and `insertDocument` with one commit per row, as the handlers call them) plus a bare
 * `node:http` server sending the same bytes (`lib/bare-server.ts`), each under autocannon (10 connections) with
 * the SDK's headers. Target: server ≤ 1.5 × (SQL + bare HTTP). CPU per request is read from `/proc` for each
 * process, so the figure holds on a loaded machine; the load is printed. Rounds alternate, least CPU kept.
 *
 * Run: `npx tsx scripts/bench/emulator-floor.ts [seconds=5] [rounds=3]`
 * EMULATOR_BENCH_PROF=<dir> profiles the embedded server (`lib/emulator-child.ts`); FLOOR_ONLY=list,get,create
 * picks the calls measured; FLOOR_SQL_UNDER_LOAD=1 runs the SQL loop while autocannon loads the bare server.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Client, Databases, DatabasesIndexType, Query } from "node-appwrite";
import { findCollection, findDatabase } from "../../embedded-appwrite/db/catalog.ts";
import { findDocument, insertDocument } from "../../embedded-appwrite/db/documents.ts";
import { Store } from "../../embedded-appwrite/db/store.ts";
import { nowDatetime } from "../../embedded-appwrite/datetime.ts";
import { captureListRequest, processCpuSeconds, startChild } from "./lib/emulator-child.ts";
import { rawListLoop, seedDirect } from "./lib/emulator-raw.ts";

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
const DB = "bench";
const TARGET = 1.5;
/** FLOOR_ONLY=list,get measures only those calls (e.g. for a profile of one). */
const only = process.env["FLOOR_ONLY"]?.split(",");
const underLoad = process.env["FLOOR_SQL_UNDER_LOAD"] === "1";
const queries = [Query.equal("category", "cat-7"), Query.orderDesc("rank"), Query.limit(25)];
const document = (i: number) => ({
  category: `cat-${i % 50}`,
  rank: (i * 7919) % 100_000,
  title: `Document number ${i} of the benchmark`,
  summary: `A short summary for document ${i}. `.repeat(5),
});

async function schema(databases: Databases, collectionId: string): Promise<void> {
  await databases.createCollection({ databaseId: DB, collectionId, name: collectionId });
  const base = { databaseId: DB, collectionId };
  await databases.createStringAttribute({ ...base, key: "category", size: 32, required: true });
  await databases.createIntegerAttribute({ ...base, key: "rank", required: true });
  await databases.createStringAttribute({ ...base, key: "title", size: 100, required: true });
  await databases.createStringAttribute({ ...base, key: "summary", size: 500, required: false });
}

interface Call {
  method: "GET" | "POST";
  url: string;
  body?: string;
}

/** autocannon (own process, 10 connections) against `call`; CPU µs of process `pid` per answered request. */
async function cannon(
  call: Call,
  headers: IncomingHttpHeaders,
  pid: number,
): Promise<{ perSecond: number; cpu: number }> {
  const skip = new Set(["host", "connection", "content-length"]);
  const headerArgs = Object.entries(headers)
    .filter(([name]) => !skip.has(name))
    .flatMap(([name, value]) => ["-H", `${name}=${String(value)}`]);
  const bodyArgs = call.body ? ["-m", "POST", "-b", call.body, "-H", "content-type=application/json"] : [];
  const args = ["-c", "10", "-d", String(seconds), "-j", ...headerArgs, ...bodyArgs, call.url];
  const before = processCpuSeconds(pid);
  const child = spawn(path.join("node_modules", ".bin", "autocannon"), args, { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  const used = processCpuSeconds(pid) - before;
  const result = JSON.parse(out) as { requests: { average: number; total: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon ${call.method} ${call.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { perSecond: result.requests.average, cpu: (used / result.requests.total) * 1e6 };
}

/** CPU µs per call of `fn` run in a loop for `seconds`. */
function cpuLoop(fn: (i: number) => void): number {
  let count = 0;
  const start = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) fn(count++);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

async function startBare(file: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench/lib/bare-server.ts"], {
    env: { ...process.env, BARE_RESPONSES: file },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /port: (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`the bare server exited (${code})`)));
  });
  return { child, port };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "emulator-floor-"));
  const { child, target } = await startChild(dataDir);
  let bare: { child: ChildProcess; port: number } | undefined;
  try {
    const client = new Client().setEndpoint(target.endpoint).setProject(target.projectId).setKey(target.apiKey);
    const databases = new Databases(client);
    await databases.create({ databaseId: DB, name: "Bench" });
    await schema(databases, "items");
    await schema(databases, "writes");
    await seedDirect(dataDir, DB, "items", 10_000, document);
    const base = { databaseId: DB, collectionId: "items", key: "category_rank", attributes: ["category", "rank"] };
    await databases.createIndex({ ...base, type: DatabasesIndexType.Key });
    const list = await captureListRequest(target, DB, queries, "items", "rows");
    const origin = new URL(target.endpoint).origin;
    const pathOf = (url: string) => url.slice(origin.length);
    const calls: Record<"list" | "get" | "create", Call> = {
      list: { method: "GET", url: list.url },
      get: { method: "GET", url: `${target.endpoint}/tablesdb/${DB}/tables/items/rows/seed4242` },
      create: {
        method: "POST",
        url: `${target.endpoint}/tablesdb/${DB}/tables/writes/rows`,
        body: JSON.stringify({ rowId: "unique()", data: document(1) }),
      },
    };
    // The embedded server's answers, recorded for the bare server.
    const recorded: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
    const sizes: Record<string, number> = {};
    for (const [name, call] of Object.entries(calls)) {
      const headers: Record<string, string> = {
        ...(list.headers as Record<string, string>),
        "content-type": "application/json",
      };
      delete headers["host"];
      delete headers["content-length"];
      delete headers["connection"];
      const response = await fetch(call.url, { method: call.method, headers, body: call.body });
      const bytes = Buffer.from(await response.arrayBuffer());
      if (!response.ok) throw new Error(`${name}: ${response.status} ${bytes.toString()}`);
      const kept: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(key)) kept[key] = value;
      });
      recorded[`${call.method} ${pathOf(call.url)}`] = {
        status: response.status,
        headers: kept,
        body: bytes.toString("base64"),
      };
      sizes[name] = bytes.length;
    }
    const responsesFile = path.join(dataDir, "bare-responses.json");
    await writeFile(responsesFile, JSON.stringify(recorded));
    bare = await startBare(responsesFile);
    const bareUrl = (url: string) => `http://127.0.0.1:${bare!.port}${pathOf(url)}`;

    // The SQL floor, in this process on the server's files (a second connection, as a second reader would).
    const store = new Store(dataDir);
    const database = findDatabase(store, DB)!;
    const items = findCollection(store, database, "items")!;
    const writes = findCollection(store, database, "writes")!;
    const rawQueries = queries.map((q) => q.toString());
    const sql = {
      list: () => rawListLoop(path.join(dataDir, "emulator.sqlite"), DB, "items", rawQueries, seconds).cpu,
      get: () => cpuLoop(() => store.read(() => findDocument(store, items, "seed4242"))),
      create: () =>
        cpuLoop((i) =>
          store.transaction(() => {
            const now = nowDatetime();
            insertDocument(store, writes, {
              id: `floor${Date.now()}x${i}`,
              createdAt: now,
              updatedAt: now,
              permissions: [],
              data: document(i),
            });
          }),
        ),
    };
    const best = Object.fromEntries(
      Object.keys(calls).map((k) => [k, { server: Infinity, sql: Infinity, bare: Infinity, rate: 0, bareRate: 0 }]),
    ) as Record<keyof typeof calls, { server: number; sql: number; bare: number; rate: number; bareRate: number }>;
    console.log(`emulator floor benchmark: 10,000 rows; ${seconds} s per measure, ${rounds} rounds`);
    console.log(`answer bytes: list ${sizes["list"]}, get ${sizes["get"]}, create ${sizes["create"]}`);
    for (let round = 1; round <= rounds; round++) {
      for (const name of (Object.keys(calls) as (keyof typeof calls)[]).filter((n) => !only || only.includes(n))) {
        const call = calls[name];
        const server = await cannon(call, list.headers, child.pid!);
        const floorHttp = await cannon({ ...call, url: bareUrl(call.url) }, list.headers, bare.child.pid!);
        // With FLOOR_SQL_UNDER_LOAD=1 the SQL loop runs while autocannon loads the bare server, so that it shares
        // the cores as the server's SQL does under its own autocannon run (caches, frequency, the scheduler).
        const loaded = underLoad ? cannon({ ...call, url: bareUrl(call.url) }, list.headers, bare.child.pid!) : null;
        const sqlCpu = sql[name]();
        await loaded;
        const b = best[name];
        Object.assign(b, {
          server: Math.min(b.server, server.cpu),
          bare: Math.min(b.bare, floorHttp.cpu),
          sql: Math.min(b.sql, sqlCpu),
          rate: Math.max(b.rate, server.perSecond),
          bareRate: Math.max(b.bareRate, floorHttp.perSecond),
        });
        console.log(
          `round ${round} ${name}: server ${server.cpu.toFixed(0)} µs (${server.perSecond.toFixed(0)} req/s), ` +
            `bare ${floorHttp.cpu.toFixed(0)} µs (${floorHttp.perSecond.toFixed(0)} req/s), SQL ${sqlCpu.toFixed(0)} µs; ` +
            `load ${loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
    store.close();
    console.log("\nCPU per request (least of the rounds), server ÷ (SQL + bare HTTP), target ≤ 1.5:");
    for (const [name, b] of Object.entries(best).filter(([, b]) => b.server < Infinity)) {
      const ratio = b.server / (b.sql + b.bare);
      console.log(
        `  ${name.padEnd(7)} server ${b.server.toFixed(0).padStart(5)} µs  SQL ${b.sql.toFixed(0).padStart(4)} µs  ` +
          `bare ${b.bare.toFixed(0).padStart(4)} µs  ratio ${ratio.toFixed(2)}×  ${ratio <= TARGET ? "met" : "NOT met"}`,
      );
      if (ratio > TARGET) process.exitCode = 1;
    }
    console.log(
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" / ")} (1, 5, 15 min; 2 cores)`,
    );
  } finally {
    bare?.child.kill("SIGTERM");
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
