/**
 * A live feed of public document changes from Appwrite's Realtime API, for caches that must never serve
 * content older than the last write (issue #8: "a server-side cache of public data invalidated by every
 * write", including writes made by `studio push` or the Appwrite console from other processes).
 *
 * The feed subscribes as a guest to the `rows` channel (TablesDB's; Appwrite 1.8+ publishes every row, i.e.
 * document, change on it whichever API wrote it): Appwrite delivers an event for every created,
 * updated or deleted document the guest may read, i.e. every public venture and post (they carry
 * `read("any")`), and nothing private. While the socket is down, events may be missed, so the feed reports
 * itself not live and callers must not trust what they cached.
 */
import WebSocket from "ws";

export interface ChangeFeedTarget {
  /** Appwrite endpoint, `http(s)://host/v1`. */
  endpoint: string;
  projectId: string;
}

export interface ChangeFeedOptions {
  /** Realtime channels to watch (default `["rows"]`, TablesDB's channel, which carries every row (document) change). */
  channels?: readonly string[];
  /** First reconnect delay in ms (doubles up to `maxReconnectMs`; default 500). */
  reconnectMs?: number;
  /** Longest reconnect delay in ms (default 15,000). */
  maxReconnectMs?: number;
  /** Keep-alive ping interval in ms (Appwrite's SDKs ping every 20 s). */
  pingMs?: number;
}

export interface ChangeFeed {
  /**
   * True while the socket is open and Appwrite has confirmed the subscription. Read it on every use: it turns
   * false synchronously when the server starts closing the socket.
   */
  readonly live: boolean;
  /** Stops watching and closes the socket. */
  close(): void;
}

/**
 * The realtime URL of an endpoint (REFERENCE §4: `<endpoint>/realtime` with http→ws).
 * @throws {TypeError} when `endpoint` is not an absolute URL.
 */
export function realtimeUrl(target: ChangeFeedTarget, channels: readonly string[]): string {
  const url = new URL(`${target.endpoint.replace(/\/+$/, "")}/realtime`);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("project", target.projectId);
  for (const channel of channels) url.searchParams.append("channels[]", channel);
  return url.href;
}

/**
 * Watches `target` for document changes. `onChange` runs for every event, and also whenever the feed goes
 * live or stops being live (events may have been missed in between), so a cache that clears itself in
 * `onChange` and trusts its entries only while `live` never serves stale content. Reconnects by itself with
 * exponential backoff; never throws after it returns.
 */
export function watchDocumentChanges(
  target: ChangeFeedTarget,
  onChange: () => void,
  options: ChangeFeedOptions = {},
): ChangeFeed {
  const url = realtimeUrl(target, options.channels ?? ["rows"]);
  const firstDelay = options.reconnectMs ?? 500;
  const maxDelay = options.maxReconnectMs ?? 15_000;
  let delay = firstDelay;
  let socket: WebSocket | undefined;
  let confirmed = false;
  let closed = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;

  const connect = () => {
    if (closed) return;
    confirmed = false;
    const ws = new WebSocket(url, { handshakeTimeout: 5_000 });
    socket = ws;
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      let message: { type?: unknown };
      try {
        message = JSON.parse(data.toString()) as { type?: unknown };
      } catch {
        return;
      }
      if (message.type === "connected") {
        confirmed = true;
        delay = firstDelay;
        onChange();
      } else if (message.type === "event") {
        onChange();
      }
    });
    ws.on("error", () => {
      // "close" follows; the error itself carries nothing the site can act on.
    });
    ws.on("close", () => {
      const wasLive = confirmed;
      confirmed = false;
      if (socket === ws) socket = undefined;
      if (wasLive) onChange();
      if (closed) return;
      reconnectTimer = setTimeout(connect, delay);
      reconnectTimer.unref();
      delay = Math.min(delay * 2, maxDelay);
    });
  };

  connect();
  pingTimer = setInterval(() => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, options.pingMs ?? 20_000);
  pingTimer.unref();

  return {
    get live() {
      return confirmed && socket?.readyState === WebSocket.OPEN;
    },
    close() {
      closed = true;
      clearTimeout(reconnectTimer);
      clearInterval(pingTimer);
      pingTimer = undefined;
      socket?.terminate();
      socket = undefined;
      confirmed = false;
    },
  };
}
