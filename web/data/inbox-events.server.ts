/**
 * The inbox's live unread count (issue #31 item 1: "updates live (Appwrite realtime) when a submission
 * arrives"). The browser never talks to Appwrite (ARCHITECTURE decision 2), so the site relays: for a studio
 * member's `GET /admin/inbox/events` it opens an Appwrite Realtime socket with the member's own session (the
 * `a_session_<project>` cookie, as Appwrite's web SDK sends it) on both submission tables' row channels, and
 * answers with server-sent events (`text/event-stream`): `unread` with `{count}` at once and after every row
 * change Appwrite delivers (Appwrite sends a member only events of rows they may read: `team:studio`). When
 * the socket closes, the stream ends and the browser's EventSource reconnects (`retry: 5000`).
 */
import WebSocket from "ws";
import { realtimeUrl } from "../../server/changes.ts";
import { unreadCount } from "../../lib/inbox/store.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { SUBMISSION_MODEL } from "../../model/site-models.ts";
import { appwriteLocation } from "./appwrite.server.ts";
import { memberTables, requireTeamMember } from "./inbox.server.ts";

/** The Realtime channels of the submission tables (TablesDB's `databases.<db>.tables.<table>.rows`). */
export const INBOX_CHANNELS = Object.values(SUBMISSION_MODEL).map(
  (spec) => `databases.${DATABASE_ID}.tables.${spec.collectionId}.rows`,
);

/** How long a burst of row events is gathered before one recount, in ms. */
const RECOUNT_DELAY_MS = 200;
/** Comment lines keeping proxies from closing an idle stream, and Appwrite's ping, every 20 s. */
const KEEP_ALIVE_MS = 20_000;

/**
 * The event stream of a member's unread count.
 * @throws {Response} 404 for a stranger, the login redirect when signed out (`requireTeamMember`).
 */
export async function inboxEvents(request: Request): Promise<Response> {
  const member = await requireTeamMember(request);
  const tables = memberTables(member);
  const location = appwriteLocation();
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const socket = new WebSocket(realtimeUrl(location, INBOX_CHANNELS), {
        headers: { Cookie: `a_session_${location.projectId}=${member.secret}` },
        handshakeTimeout: 5_000,
      });
      let recount: NodeJS.Timeout | undefined;
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const sendCount = async () => {
        try {
          write(`event: unread\ndata: ${JSON.stringify({ count: await unreadCount(tables) })}\n\n`);
        } catch (error) {
          console.error("[inbox] counting unread failed:", (error as Error).message);
        }
      };
      const keepAlive = setInterval(() => {
        write(": keep-alive\n\n");
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
      }, KEEP_ALIVE_MS);
      cleanup = () => {
        if (!open) return;
        open = false;
        clearInterval(keepAlive);
        clearTimeout(recount);
        socket.close();
        try {
          controller.close();
        } catch {
          // already closed by the browser
        }
      };
      request.signal.addEventListener("abort", () => cleanup());
      write("retry: 5000\n\n");
      void sendCount();
      socket.on("message", (data, isBinary) => {
        if (isBinary) return;
        let message: { type?: unknown };
        try {
          message = JSON.parse(String(data)) as { type?: unknown };
        } catch {
          return;
        }
        if (message.type === "connected") write("event: live\ndata: {}\n\n");
        if (message.type !== "event") return;
        clearTimeout(recount);
        recount = setTimeout(() => void sendCount(), RECOUNT_DELAY_MS);
      });
      socket.on("error", () => {
        // "close" follows.
      });
      socket.on("close", () => cleanup());
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: the site's compression must not buffer the stream.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
