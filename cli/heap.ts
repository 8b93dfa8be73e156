/**
 * How much garbage `studio push` lets V8 keep (issue #33 item 6: a push of 200,000 items in < 1 GB of resident
 * memory). A push holds a few hundred MB that survive (the lock, the plan) and renders much garbage besides
 * (jsdom, DOMPurify); V8's default lets the old generation grow to up to 4× what survived its last full
 * collection, and a heap once grown is kept. Two knobs, both V8's own and read at every collection:
 * `--heap-growing-percent` (the old generation's next limit is `1 + percent/100` times what survived), and one
 * full collection once a large push is planned (what reading and planning left behind is dropped before the
 * writes; the limit is then taken from what the plan holds).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Growth for every push: 2× (V8: up to 4×). At 10,000 × 2 this took the push's peak RSS from 519 to 364 MB in
 * the same time (43.1 and 42.5 s); 25 % (1.25×) took it to 311 MB but 27 % longer (more full collections).
 */
export const HEAP_GROWING_PERCENT = 100;
/** Growth once a push of `LARGE_PLAN` items or more is planned: 1.5×, its live data being the larger part. */
export const LARGE_HEAP_GROWING_PERCENT = 50;
/** Planned items from which a push collects once planned and grows its heap by `LARGE_HEAP_GROWING_PERCENT`. */
export const LARGE_PLAN = 50_000;

/** The percent from `STUDIO_HEAP_GROWING` (0: V8's own growth, nothing set), else `fallback`. */
function percentFrom(fallback: number): number {
  const set = process.env["STUDIO_HEAP_GROWING"];
  const percent = set === undefined || set === "" ? fallback : Number(set);
  return Number.isInteger(percent) && percent >= 0 ? percent : fallback;
}

/** Sets the heap's growth for a push (`HEAP_GROWING_PERCENT`, or `STUDIO_HEAP_GROWING`; 0: V8's default). */
export function tightenHeap(): void {
  const percent = percentFrom(HEAP_GROWING_PERCENT);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * Once a push of `items` planned items is planned: from `LARGE_PLAN` on, one full collection (the read's and
 * the plan's garbage dropped) and the heap's growth lowered to `LARGE_HEAP_GROWING_PERCENT` (unless
 * `STUDIO_HEAP_GROWING` says otherwise; 0 leaves V8 alone).
 */
export function planned(items: number): void {
  if (items < LARGE_PLAN || percentFrom(LARGE_HEAP_GROWING_PERCENT) === 0) return;
  setFlagsFromString(`--heap-growing-percent=${percentFrom(LARGE_HEAP_GROWING_PERCENT)}`);
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}
