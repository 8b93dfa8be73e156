import { describe, expect, it } from "vitest";
import { SizedLru } from "../../lib/http/sized-lru.ts";

const bytes = (n: number) => new ArrayBuffer(n);
const byteCache = (maxBytes: number) => new SizedLru<ArrayBuffer>({ maxBytes, sizeOf: (b) => b.byteLength });

describe("SizedLru (bytes)", () => {
  it("drops the least recently used values once the total passes its bound", () => {
    const cache = byteCache(10);
    cache.set("a", bytes(4));
    cache.set("b", bytes(4));
    expect(cache.get("a")?.byteLength).toBe(4); // a is now more recent than b
    cache.set("c", bytes(4));
    expect([cache.get("a"), cache.get("b"), cache.get("c")].map((v) => v?.byteLength)).toEqual([4, undefined, 4]);
    expect(cache.bytes).toBe(8);
  });

  it("never keeps a value larger than the bound, and counts a replaced value once", () => {
    const cache = byteCache(10);
    cache.set("a", bytes(6));
    cache.set("a", bytes(3));
    expect(cache.bytes).toBe(3);
    cache.set("huge", bytes(11));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("a")?.byteLength).toBe(3);
  });

  it("refuses a bound that is not a positive integer", () => {
    expect(() => byteCache(0)).toThrow(/positive integer/);
    expect(() => byteCache(1.5)).toThrow(RangeError);
  });
});
