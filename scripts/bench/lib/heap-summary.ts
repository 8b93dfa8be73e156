/**
 * A V8 heap snapshot (`v8.writeHeapSnapshot`) summed by constructor: count and shallow bytes of each node name
 * (objects by constructor, strings, closures, arrays), the largest first. For `push-memory.ts`'s
 * `PUSH_HEAP_AT` (issue #33 item 6: what the push holds per item). Shallow sizes only: enough to see which
 * shapes grow with the number of items.
 *
 * Run: `npx tsx scripts/bench/lib/heap-summary.ts <file.heapsnapshot> [top=30]`
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const [file, top = "30"] = process.argv.slice(2);
if (!file) throw new Error("usage: heap-summary.ts <file.heapsnapshot> [top]");
const heap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
const fields = heap.snapshot.meta.node_fields;
const types = heap.snapshot.meta.node_types[0];
const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
const sums = new Map<string, { count: number; bytes: number }>();
let total = 0;
for (let i = 0; i < heap.nodes.length; i += fields.length) {
  const type = types[heap.nodes[i + typeAt!]!]!;
  const name = type === "object" || type === "closure" ? `${type} ${heap.strings[heap.nodes[i + nameAt!]!]}` : type;
  const size = heap.nodes[i + sizeAt!]!;
  const sum = sums.get(name) ?? { count: 0, bytes: 0 };
  sum.count++;
  sum.bytes += size;
  total += size;
  sums.set(name, sum);
}
console.log(`total ${(total / 1e6).toFixed(1)} MB in ${heap.nodes.length / fields.length} nodes`);
for (const [name, { count, bytes }] of [...sums].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(top))) {
  console.log(`${(bytes / 1e6).toFixed(1).padStart(8)} MB ${String(count).padStart(9)}  ${name.slice(0, 90)}`);
}
