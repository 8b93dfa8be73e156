/**
 * The guest read cache (issue #33 item 2, `lib/appwrite/read-cache.ts`): a public page never gets data older
 * than the last write event, nor older than the age bound, nor anything while a site's feed is down; a caller
 * that tries to change what it got cannot change what the next page shows.
 */
import { describe, expect, it } from "vitest";
import { GuestReadCache, READ_CACHE_MAX_AGE_MS } from "../../lib/appwrite/read-cache.ts";

function setup(options: { enabled?: boolean; live?: boolean; maxAgeMs?: number } = {}) {
  let now = 0;
  const state = { live: options.live ?? true };
  const cache = new GuestReadCache(() => now);
  const detach = cache.attach({
    enabled: options.enabled ?? true,
    live: () => state.live,
    maxAgeMs: options.maxAgeMs ?? READ_CACHE_MAX_AGE_MS,
  });
  let version = 0;
  const load = async () => ({ version: ++version, rows: [{ title: "a" }] });
  return { cache, state, detach, load, advance: (ms: number) => (now += ms) };
}

describe("GuestReadCache", () => {
  it("serves a repeated read from memory while the feed is live", async () => {
    const { cache, load } = setup();
    expect((await cache.read("k", load)).version).toBe(1);
    expect((await cache.read("k", load)).version).toBe(1);
  });

  it("reads again after a write event (invalidate)", async () => {
    const { cache, load } = setup();
    await cache.read("k", load);
    cache.invalidate();
    expect((await cache.read("k", load)).version).toBe(2);
  });

  it("does not store a read that started before a write event", async () => {
    const { cache } = setup();
    let release!: () => void;
    const slow = cache.read(
      "k",
      () => new Promise<{ v: string }>((resolve) => (release = () => resolve({ v: "old" }))),
    );
    cache.invalidate(); // the write happens while the old read is under way
    release();
    expect(await slow).toEqual({ v: "old" });
    expect(await cache.read("k", async () => ({ v: "new" }))).toEqual({ v: "new" });
  });

  it("expires entries after the age bound (an unpublish sends guests no event)", async () => {
    const { cache, load, advance } = setup({ maxAgeMs: 1_000 });
    await cache.read("k", load);
    advance(1_001);
    expect((await cache.read("k", load)).version).toBe(2);
  });

  it("never serves from memory while a site's feed is down, or when a site asked for no cache", async () => {
    const down = setup({ live: false });
    await down.cache.read("k", down.load);
    expect((await down.cache.read("k", down.load)).version).toBe(2);
    const off = setup({ enabled: false });
    await off.cache.read("k", off.load);
    expect((await off.cache.read("k", off.load)).version).toBe(2);
    const detached = setup();
    detached.detach();
    await detached.cache.read("k", detached.load);
    expect((await detached.cache.read("k", detached.load)).version).toBe(2);
  });

  it("refuses a caller's change to what it got, so the next page shows what Appwrite answered", async () => {
    const { cache, load } = setup();
    const first = await cache.read("k", load);
    expect(() => (first.rows[0]!.title = "changed by a caller")).toThrow(TypeError);
    expect(() => first.rows.push({ title: "added by a caller" })).toThrow(TypeError);
    const again = await cache.read("k", load);
    expect(again.rows).toEqual([{ title: "a" }]);
    expect(() => (again.version = 7)).toThrow(TypeError);
  });

  it("does not store a failed read", async () => {
    const { cache, load } = setup();
    await expect(cache.read("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect((await cache.read("k", load)).version).toBe(1);
  });
});
