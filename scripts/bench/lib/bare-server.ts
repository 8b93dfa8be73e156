/**
 * The bare HTTP floor of the emulator benchmark: a plain `node:http` server that answers each path with the
 * exact bytes (status, headers, body) the embedded server answered it with, recorded beforehand. What is left of
 * the embedded server's CPU per request beyond this and its SQL is its own work (issue #33 item 4).
 * Run as a child: BARE_RESPONSES=<json file of {method path: {status, headers, body(base64)}}>; prints `port: N`.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}
const recorded = JSON.parse(readFileSync(process.env["BARE_RESPONSES"]!, "utf8")) as Record<string, Recorded>;
const answers = new Map(
  Object.entries(recorded).map(([key, r]) => [key, { ...r, bytes: Buffer.from(r.body, "base64") }] as const),
);
const server = createServer((req, res) => {
  const answer = answers.get(`${req.method} ${req.url}`);
  // The request body (createRow) is read, as the embedded server reads it, before answering.
  req.resume();
  req.once("end", () => {
    if (!answer) return void res.writeHead(404).end();
    res.writeHead(answer.status, answer.headers).end(answer.bytes);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(`port: ${(server.address() as AddressInfo).port}`));
