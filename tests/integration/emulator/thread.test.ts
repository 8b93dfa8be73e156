/**
 * `npm start` runs the embedded server on a worker thread (issue #8): it serves the same API from there,
 * stops cleanly on close, and reports a failed start with the emulator's own message.
 */
import { createServer } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorThread } from "../../../embedded-appwrite/thread.ts";

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "emulator-thread-"));
});
afterAll(async () => rm(dataDir, { recursive: true, force: true }));

describe("the emulator on a worker thread", () => {
  it("answers Appwrite's API, then stops listening on close", async () => {
    const emulator = await startEmulatorThread({ dataDir, port: 0 });
    const health = await fetch(`${emulator.endpoint}/health/version`, {
      headers: { "X-Appwrite-Project": emulator.projectId, "X-Appwrite-Key": emulator.apiKey },
    });
    expect(health.status).toBe(200);
    expect(await health.json()).toHaveProperty("version");
    await emulator.close();
    await expect(fetch(`${emulator.endpoint}/health/version`)).rejects.toThrow();
  });

  it("rejects with the emulator's message when its port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startEmulatorThread({ dataDir, port })).rejects.toThrow(/EADDRINUSE|in use/i);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
