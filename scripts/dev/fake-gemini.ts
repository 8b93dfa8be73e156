/**
 * A local fake of the Gemini REST API (`POST /v1beta/models/<model>:generateContent`) that the real
 * `@google/genai` SDK is pointed at with `httpOptions.baseUrl`. It records every request and answers from a
 * script: one reply per request, in order (the last one repeats).
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // The SDK's request body, as JSON; tests read nested fields directly.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: Record<string, any>;
}

export type Reply =
  | { json: unknown }
  | { text: string }
  | { image: Buffer; mimeType?: string }
  | { status: number; error?: string }
  | { hang: true };

export interface FakeGemini {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Sets the replies for the next requests. */
  script(...replies: Reply[]): void;
  close(): Promise<void>;
}

const candidate = (parts: unknown[]) => ({
  candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
});

/** Starts the fake on a free loopback port. */
export async function startFakeGemini(): Promise<FakeGemini> {
  const requests: RecordedRequest[] = [];
  let replies: Reply[] = [{ status: 500, error: "no reply scripted" }];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: raw ? JSON.parse(raw) : {},
      });
      const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
      if ("hang" in reply) {
        hanging.add(res);
        return;
      }
      res.setHeader("content-type", "application/json");
      if ("status" in reply) {
        res.statusCode = reply.status;
        res.end(JSON.stringify({ error: { code: reply.status, message: reply.error ?? "error", status: "ERROR" } }));
      } else if ("image" in reply) {
        res.end(
          JSON.stringify(
            candidate([
              { inlineData: { mimeType: reply.mimeType ?? "image/png", data: reply.image.toString("base64") } },
            ]),
          ),
        );
      } else {
        res.end(JSON.stringify(candidate([{ text: "json" in reply ? JSON.stringify(reply.json) : reply.text }])));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    script: (...next) => {
      replies = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
