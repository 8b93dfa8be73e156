/**
 * The realtime change feed (server/changes.ts) wired to a page cache as the site wires it: a reconnect
 * drops everything cached before it, since writes made while the socket was down sent no event (SECURITY C55,
 * docs/decisions/0006). A stand-in realtime server speaks Appwrite's protocol (REFERENCE §4 "Realtime").
 */
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { watchDocumentChanges, type ChangeFeed } from "../../server/changes.ts";
import { makeTemplate, PageCache } from "../../server/http/page-cache.ts";

const NONCE = "cmVuZGVyLW5vbmNlLTEyMw==";
const page = (text: string) =>
  makeTemplate(`<p>${text}</p><script nonce="${NONCE}"></script>`, `script-src 'nonce-${NONCE}'`, NONCE, []);

/** A realtime endpoint that confirms every connection, as Appwrite does, and lets the test drop them. */
async function fakeRealtime(): Promise<{ endpoint: string; sockets: WebSocket[]; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const sockets: WebSocket[] = [];
  server.on("connection", (socket) => {
    sockets.push(socket);
    socket.send(JSON.stringify({ type: "connected", data: { channels: ["documents"], user: null } }));
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1`,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of server.clients) socket.terminate();
        server.close(() => resolve());
      }),
  };
}

/** Polls `condition` every 10 ms (vitest's `vi.waitFor`); throws naming `what` after `ms`. */
async function until(condition: () => boolean, what: string, ms = 5_000): Promise<void> {
  await vi.waitFor(
    () => {
      if (!condition()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: ms, interval: 10 },
  );
}

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe("the change feed and the page cache", () => {
  it("drops every page cached before a reconnect, and pages stored while the feed was down", async () => {
    const realtime = await fakeRealtime();
    cleanup.push(() => realtime.close());
    const cache = new PageCache();
    const feed: ChangeFeed = watchDocumentChanges(
      { endpoint: realtime.endpoint, projectId: "p" },
      () => cache.invalidate(),
      { reconnectMs: 20 },
    );
    cleanup.push(() => feed.close());
    await until(() => feed.live, "the feed to go live");

    cache.store("/en/blog", page("before"), cache.generation);
    const rendering = cache.generation; // a render that began before the connection dropped
    realtime.sockets[0]!.terminate();
    await until(() => !feed.live, "the feed to notice the drop");
    expect(cache.size).toBe(0);
    cache.store("/en", page("while down"), cache.generation); // never served (not live), and must not survive

    await until(() => feed.live && realtime.sockets.length === 2, "the feed to reconnect");
    expect(cache.size).toBe(0);
    expect(cache.lookup("/en")).toBeUndefined();
    expect(cache.store("/en/blog", page("late"), rendering)).toBe(false);
  });

  it("drops the cache on every event, whatever its channel or payload", async () => {
    const realtime = await fakeRealtime();
    cleanup.push(() => realtime.close());
    const cache = new PageCache();
    const feed = watchDocumentChanges({ endpoint: realtime.endpoint, projectId: "p" }, () => cache.invalidate());
    cleanup.push(() => feed.close());
    await until(() => feed.live, "the feed to go live");
    cache.store("/en", page("a"), cache.generation);
    realtime.sockets[0]!.send(JSON.stringify({ type: "event", data: { events: ["x"], channels: ["documents"] } }));
    await until(() => cache.size === 0, "the event to drop the cache");
  });
});
