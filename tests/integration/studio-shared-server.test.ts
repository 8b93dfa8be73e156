/**
 * Two commands on one DATA_DIR with no server running (issue #34): the second used to borrow the first's
 * temporary embedded server, which the first then stopped under it. A command's own server is temporary now:
 * another waits for it to end, then starts its own.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openEmbeddedEmulator } from "../../embedded-appwrite/embedded.ts";
import { startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
let dataDir: string;
beforeEach(async () => {
  backend = await startBackend();
  dataDir = await mkdtemp(path.join(tmpdir(), "studio-shared-"));
});
afterEach(async () => {
  await backend.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A live process standing for "the first command", and a lock saying its (running) server is `temporary`. */
async function firstCommand(temporary: boolean) {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  await new Promise((resolve) => child.once("spawn", resolve));
  const { endpoint, projectId, apiKey } = backend.emulator;
  await writeFile(
    path.join(dataDir, "emulator.lock"),
    JSON.stringify({ pid: child.pid, endpoint, projectId, apiKey, ...(temporary ? { temporary: true } : {}) }),
  );
  return child;
}

describe("the embedded server of a studio command", () => {
  it("is not borrowed by a second command: it waits for the first to end, then starts its own", async () => {
    const first = await firstCommand(true);
    const waited: number[] = [];
    const second = openEmbeddedEmulator({
      dataDir,
      port: 0,
      temporary: true,
      onWait: (pid) => {
        waited.push(pid);
        first.kill();
      },
    });
    const server = await second;
    try {
      expect(waited).toEqual([first.pid]);
      expect(server.shared).toBe(false);
      expect(server.endpoint).not.toBe(backend.emulator.endpoint);
    } finally {
      await server.close();
    }
  });

  it("npm start's server (not temporary) is still shared", async () => {
    const first = await firstCommand(false);
    try {
      const server = await openEmbeddedEmulator({ dataDir, port: 0, temporary: true });
      expect(server.shared).toBe(true);
      expect(server.endpoint).toBe(backend.emulator.endpoint);
    } finally {
      first.kill();
    }
  });
});
