import { vi } from "vitest";
import { WebSocket } from "ws";

/** A realtime message as the server sends it. */
export type RealtimeMessage = { type: string; data?: Record<string, unknown> & { code?: number; to?: string } };

/** Polls `find` every 10 ms until it returns a value (vitest's `vi.waitFor`); throws naming `what` after `ms`. */
export function until<T>(find: () => T | undefined, what: string, ms = 3000): Promise<T> {
  return vi.waitFor(
    () => {
      const value = find();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: ms, interval: 10 },
  );
}

/**
 * A raw protocol client on `<endpoint>/realtime?<query>`, for what the web SDK hides (pong, errors,
 * close codes, URL channels): `next(type, after?)` waits for a message of that type.
 */
export function rawRealtime(endpoint: string, query: string, headers: Record<string, string> = {}) {
  const messages: RealtimeMessage[] = [];
  const ws = new WebSocket(`${endpoint.replace("http://", "ws://")}/realtime?${query}`, { headers });
  ws.on("message", (data) => messages.push(JSON.parse(String(data)) as RealtimeMessage));
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  return {
    messages,
    closed,
    next: (type: string, after = 0) => until(() => messages.slice(after).find((m) => m.type === type), type),
    send: async (message: unknown) => {
      if (ws.readyState !== WebSocket.OPEN) await new Promise((resolve) => ws.once("open", resolve));
      ws.send(JSON.stringify(message));
    },
    close: () => ws.close(),
  };
}
