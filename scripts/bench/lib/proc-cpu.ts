/**
 * CPU time of a process tree, from Linux's `/proc/<pid>/stat` (utime + stime of every thread of every process
 * under a root: JavaScript, garbage collection, libuv's pool where zlib compresses), for CPU per request
 * measured from outside the process (issue #33: "CPU per request from the processes, not only req/s").
 */
import { readFileSync, readdirSync } from "node:fs";

/** Clock ticks per second of `/proc` times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** `[ppid, utime + stime in ticks]` of a process, or null when it is gone. */
function statOf(pid: number): [number, number] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces), from field 3 (state) on.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])];
  } catch {
    return null;
  }
}

/** The pids of `root` and all its descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat) children.set(stat[0], [...(children.get(stat[0]) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

/**
 * CPU milliseconds used so far by each process of the tree under `root` (user + system, all threads).
 * @throws {Error} off Linux (no `/proc`).
 */
export function treeCpuMs(root: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of processTree(root)) {
    const stat = statOf(pid);
    if (stat) out.set(pid, (stat[1] * 1000) / TICKS_PER_SECOND);
  }
  return out;
}

/** Milliseconds of CPU each process used between two `treeCpuMs` readings (processes in `after`). */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [pid, ms] of after) out.set(pid, ms - (before.get(pid) ?? 0));
  return out;
}
