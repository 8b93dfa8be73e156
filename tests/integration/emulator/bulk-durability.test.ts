import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client, Databases, TablesDB } from "node-appwrite";
import { startEmulator } from "../../../embedded-appwrite/server.ts";
import { integrity, NOTES, noteIds, prepareNotes } from "../../../scripts/dev/durability.ts";
import { startEmulatorProcess } from "../../../scripts/dev/processes.ts";

// SECURITY C46 for multi-row writes: the emulator is killed with SIGKILL while bulk row creates (100 rows per
// call, one SQLite transaction each) are in flight. After a restart every batch is whole or absent, every
// acknowledged batch is whole, and `PRAGMA integrity_check` is ok.
const BATCH = 100;
const dataDir = mkdtempSync(join(tmpdir(), "emulator-bulk-kill-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("bulk writes and SIGKILL (C46)", () => {
  it("given bulk creates in flight, when the server is killed, then no batch is partly stored", async () => {
    const server = await startEmulatorProcess(dataDir);
    const client = new Client().setEndpoint(server.endpoint).setProject(server.projectId).setKey(server.apiKey);
    await prepareNotes(client);
    const tables = new TablesDB(client);
    const acknowledged: number[] = [];
    let next = 0;
    const worker = async () => {
      for (;;) {
        const batch = next++;
        const rows = Array.from({ length: BATCH }, (_, k) => ({ $id: `b${batch}-${k}`, body: `row ${k}` }));
        try {
          await tables.createRows({ databaseId: NOTES.databaseId, tableId: NOTES.collectionId, rows });
          acknowledged.push(batch);
          if (acknowledged.length === 12) server.child.kill("SIGKILL");
        } catch {
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    await server.exited;
    expect(integrity(dataDir)).toBe("ok");

    const again = await startEmulator({ dataDir, port: 0, projectId: server.projectId, apiKey: server.apiKey });
    let stored: Set<string>;
    try {
      const admin = new Client().setEndpoint(again.endpoint).setProject(server.projectId).setKey(server.apiKey);
      stored = await noteIds(new Databases(admin));
    } finally {
      await again.close();
    }
    const perBatch = new Map<string, number>();
    for (const id of stored) {
      const batch = id.split("-")[0] ?? "";
      perBatch.set(batch, (perBatch.get(batch) ?? 0) + 1);
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(12);
    expect(
      [...perBatch.values()].every((count) => count === BATCH),
      "every stored batch is whole",
    ).toBe(true);
    expect(acknowledged.filter((batch) => perBatch.get(`b${batch}`) !== BATCH)).toEqual([]);
    expect(integrity(dataDir)).toBe("ok");
  });
});
