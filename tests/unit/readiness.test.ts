import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { readinessCheck } from "../../server/http/readiness.ts";

const EMPTY: AppwriteSchema = { databases: [], collections: [], buckets: [] };

describe("readinessCheck (/readyz, issue #32 item 1)", () => {
  it("is not ready while Appwrite does not answer, and says so without the key", async () => {
    const target = { endpoint: "http://127.0.0.1:9/v1", projectId: "p", apiKey: "secret-key" };
    const answer = await readinessCheck(target, EMPTY, 0)();
    expect(answer).toEqual({ ready: false, appwrite: "down", schema: "unknown" });
  });

  it("names a key that cannot read the schema, and reuses an answer within its time to live", async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      requests += 1;
      if (req.url === "/v1/health/version") res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      else res.writeHead(401, { "Content-Type": "application/json" }).end('{"message":"no scope","code":401}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const target = {
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        projectId: "p",
        apiKey: "k",
      };
      const schema: AppwriteSchema = { databases: [{ $id: "main_db", name: "Main" }], collections: [], buckets: [] };
      const check = readinessCheck(target, schema, 60_000);
      const answer = await check();
      expect(answer).toMatchObject({ ready: false, appwrite: "up", schema: "unknown" });
      expect(answer.error).toMatch(/Appwrite answered 401.*scopes/);
      const seen = requests;
      await check();
      expect(requests).toBe(seen);
    } finally {
      server.close();
    }
  });
});
