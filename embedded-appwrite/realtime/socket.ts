import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import qs from "qs";
import { WebSocketServer } from "ws";
import type { WebSocket } from "ws";
import { resolveUser, sessionValue } from "../auth/caller.ts";
import { AppwriteError } from "../errors.ts";
import type { AppState } from "../http/context.ts";
import { originAllowed } from "../http/handle.ts";
import { POLICY_VIOLATION, RealtimeConnection, RealtimeError } from "./connection.ts";

/** The realtime endpoint's path (REFERENCE §1: `<endpoint>/realtime`, `http→ws`). */
const REALTIME_PATH = "/v1/realtime";

/** A realtime server attached to the emulator's HTTP server. */
export interface RealtimeServer {
  /**
   * Close every client socket with 1001 "going away" (RFC 6455 §7.4.1), waiting up to `graceMs` for each
   * client to answer the close handshake (so clients know before the server is gone), then stop listening.
   */
  close(graceMs?: number): Promise<void>;
}

function sendError(ws: WebSocket, code: number, message: string): void {
  ws.send(JSON.stringify({ type: "error", data: { code, message } }));
}

function one(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * Open a client as AW `app/realtime.php` `onOpen` does: project (query `project`, else
 * `X-Appwrite-Project`) must be this one, a browser Origin must be trusted, the caller comes from
 * the session cookie (or header) and `jwt`; then the URL's `channels[]` become one subscription
 * and the `connected` message is sent. Throws `RealtimeError` 1008 or an `AppwriteError`.
 */
function open(app: AppState, ws: WebSocket, req: IncomingMessage): RealtimeConnection {
  const query = qs.parse((req.url ?? "").split("?")[1] ?? "", { arrayLimit: 100, depth: 2 }) as Record<string, unknown>;
  const project = one(query["project"]) ?? one(req.headers["x-appwrite-project"]);
  if (!project || project !== app.projectId) {
    throw new RealtimeError(POLICY_VIOLATION, "Missing or unknown project ID");
  }
  const origin = req.headers.origin;
  if (origin && !originAllowed(app, origin)) {
    const host = new URL(origin.includes("://") ? origin : `http://${origin}`).host;
    throw new RealtimeError(
      POLICY_VIOLATION,
      `Invalid Origin. Register your new client (${host}) as a new Web platform on your project console dashboard`,
    );
  }
  const ip = req.socket.remoteAddress ?? "";
  const caller = resolveUser(app, sessionValue(app, req.headers), one(query["jwt"]), ip);
  const connection = new RealtimeConnection(app, ws, caller, ip);
  const raw = query["channels"];
  const channels = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
    (c): c is string => typeof c === "string" && c !== "",
  );
  const subscriptions: string[] = [];
  let names: string[] = [];
  if (channels.length > 0) {
    const subscription = connection.subscribe(channels, []);
    subscriptions.push(subscription.id);
    names = subscription.channels;
  }
  ws.send(JSON.stringify({ type: "connected", data: { channels: names, subscriptions, user: connection.account() } }));
  return connection;
}

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Serve `/v1/realtime` WebSockets on `server` (its `upgrade` event) with Appwrite's protocol
 * (REFERENCE §4 "Realtime (brief)"): `connected`, `event`, `response`, `pong` and `error` messages;
 * opening errors are sent as an `error` message, then the socket is closed with 1008. Events come
 * from `app.events` and reach a client only when it holds one of the event's read roles. Any
 * other upgrade path is refused with 404.
 */
export function attachRealtime(server: Server, app: AppState): RealtimeServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64_000 });
  const connections = new Set<RealtimeConnection>();
  // The bus has a listener only while clients are connected, so writes skip building events otherwise.
  let stopListening: (() => void) | undefined;
  const add = (connection: RealtimeConnection) => {
    connections.add(connection);
    stopListening ??= app.events.listen((event) => {
      for (const c of connections) c.deliver(event);
    });
  };
  const remove = (connection: RealtimeConnection) => {
    connections.delete(connection);
    if (connections.size === 0) {
      stopListening?.();
      stopListening = undefined;
    }
  };

  wss.on("connection", (ws: WebSocket, req: IncomingMessage) => {
    let connection: RealtimeConnection;
    try {
      connection = open(app, ws, req);
    } catch (error) {
      const code = error instanceof RealtimeError || error instanceof AppwriteError ? error.code : 500;
      sendError(ws, code, error instanceof Error ? error.message : "Error: Server Error");
      ws.close(POLICY_VIOLATION);
      return;
    }
    add(connection);
    ws.on("message", (data, isBinary) => {
      try {
        connection.handle(isBinary ? "" : data.toString());
      } catch (error) {
        const code = error instanceof RealtimeError ? error.code : 500;
        sendError(ws, code, error instanceof RealtimeError ? error.message : "Error: Server Error");
        if (code === POLICY_VIOLATION) ws.close(POLICY_VIOLATION);
        if (!(error instanceof RealtimeError)) console.error("[emulator] realtime message failed", error);
      }
    });
    ws.on("close", () => remove(connection));
    ws.on("error", () => remove(connection));
  });

  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== REALTIME_PATH) {
      refuse(socket, "404 Not Found");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });

  return {
    close: async (graceMs = 1000) => {
      const closing = [...wss.clients].map(
        (ws) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              ws.terminate();
              resolve();
            }, graceMs);
            ws.once("close", () => {
              clearTimeout(timer);
              resolve();
            });
            ws.close(1001, "Server shutting down");
          }),
      );
      await Promise.all(closing);
      for (const connection of [...connections]) remove(connection);
      wss.close();
    },
  };
}
