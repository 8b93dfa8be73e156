/**
 * `studio push` of one content folder in a process of its own (issue #33 item 6), for `push-memory.ts`: its
 * resident memory is the push's alone, not the embedded server's or the bench's. Reads the target from
 * `APPWRITE_ENDPOINT`, `APPWRITE_PROJECT_ID`, `APPWRITE_API_KEY`; prints one JSON line to stdout at every
 * tenth of the items (`{done, total, rss, heap}`, bytes) and a last one with the counts, the seconds and the
 * peak RSS (`maxRSS`). With `PUSH_HEAP_AT=<n>` it writes a V8 heap snapshot (`v8.writeHeapSnapshot`, into the
 * current folder) once `n` items are done (`planned`: once planned, before any write), after a full GC when run with `--expose-gc`. With `PUSH_GC=1` (and
 * `--expose-gc`) each sample first collects the garbage: its `heap` is then what the push holds (its peak RSS
 * is lower than an ordinary run's, so measure the peak without it).
 *
 * Run: `node [--expose-gc] --import tsx scripts/bench/lib/push-child.ts <contentDir> <lockPath>`
 */
import { writeHeapSnapshot } from "node:v8";
import { createAdminServices } from "../../../lib/appwrite/client.ts";
import { push } from "../../../lib/publish/push.ts";

const [contentDir, lockPath] = process.argv.slice(2);
if (!contentDir || !lockPath) throw new Error("usage: push-child.ts <contentDir> <lockPath>");
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const services = createAdminServices({
  endpoint: env("APPWRITE_ENDPOINT"),
  projectId: env("APPWRITE_PROJECT_ID"),
  apiKey: env("APPWRITE_API_KEY"),
});
const heapAt = Number(process.env["PUSH_HEAP_AT"] ?? 0);
const collect = process.env["PUSH_GC"] === "1" ? (globalThis as { gc?: () => void }).gc : undefined;
const sample = (extra: Record<string, unknown>) => {
  collect?.();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ ...extra, rss, heap: heapUsed, heapTotal, external, arrayBuffers })}\n`);
};
sample({ phase: "start" });
let shown = -1;
const start = performance.now();
const result = await push(services, {
  contentDir,
  lockPath,
  onEvent: (event) => {
    if (event.type === "planned") {
      sample({ phase: "planned", total: event.plan.length });
      if (process.env["PUSH_HEAP_AT"] === "planned") {
        (globalThis as { gc?: () => void }).gc?.();
        sample({ phase: "snapshot", file: writeHeapSnapshot() });
      }
      // `PUSH_EXIT_PLANNED=1`: what planning holds, nothing written (`PUSH_GC=1` for the live heap).
      if (process.env["PUSH_EXIT_PLANNED"] === "1") process.exit(0);
    }
    if (event.type !== "item") return;
    if (heapAt && event.done === heapAt) {
      (globalThis as { gc?: () => void }).gc?.();
      sample({ phase: "snapshot", done: event.done, file: writeHeapSnapshot() });
    }
    const tenth = Math.floor((event.done / event.total) * 10);
    if (tenth === shown) return;
    shown = tenth;
    sample({ phase: "item", done: event.done, total: event.total });
  },
});
const seconds = (performance.now() - start) / 1000;
const { created, updated, unchanged, failed } = result;
sample({ phase: "end", seconds, created, updated, unchanged, failed, maxRSS: process.resourceUsage().maxRSS * 1024 });
