/**
 * The emulator killed with SIGKILL during a burst of writes (SECURITY C46; `tests/integration/emulator/
 * durability.test.ts` and `scripts/bench/faults.ts`): which acknowledged writes survive, and whether SQLite
 * still passes `PRAGMA integrity_check`.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { Client, Databases, Query } from "node-appwrite";
import { startEmulator } from "../../embedded-appwrite/server.ts";
import { startEmulatorProcess } from "./processes.ts";

/** Where `prepareNotes` puts the notes. */
export const NOTES = { databaseId: "db", collectionId: "notes" };
const where = NOTES;

/** `PRAGMA integrity_check` of the emulator database in `dataDir` (`ok` when sound). */
export function integrity(dataDir: string): string {
  const db = new Database(join(dataDir, "emulator.sqlite"), { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

/** Creates database `db` with collection `notes` (one required string attribute `body`). */
export async function prepareNotes(client: Client): Promise<Databases> {
  const db = new Databases(client);
  await db.create({ databaseId: "db", name: "DB" });
  await db.createCollection({ ...where, name: "Notes" });
  await db.createStringAttribute({ ...where, key: "body", size: 100, required: true });
  return db;
}

/** Ids of every note (up to 5,000). */
export async function noteIds(db: Databases): Promise<Set<string>> {
  const list = await db.listDocuments({ ...where, queries: [Query.select(["$id"]), Query.limit(5000)] });
  return new Set(list.documents.map((d) => d.$id));
}

export interface KillReport {
  /** Writes the server answered 2xx before it died. */
  acknowledged: number;
  /** Acknowledged writes missing after a restart (should be none). */
  lost: string[];
  /** `PRAGMA integrity_check` right after the kill, and after the restart. */
  integrityAfterKill: string;
  integrityAfterRestart: string;
}

/**
 * Starts the emulator for `dataDir` in a child process, writes notes from `workers` concurrent clients,
 * kills it with SIGKILL once `killAfter` writes were acknowledged, then checks the database and reopens it
 * (in this process) to count the acknowledged writes that were lost.
 */
export async function killDuringWrites(dataDir: string, killAfter = 300, workers = 16): Promise<KillReport> {
  const server = await startEmulatorProcess(dataDir);
  const db = await prepareNotes(
    new Client().setEndpoint(server.endpoint).setProject(server.projectId).setKey(server.apiKey),
  );
  const acknowledged: string[] = [];
  let next = 0;
  const worker = async () => {
    for (;;) {
      const id = `n${next++}`;
      try {
        await db.createDocument({ ...where, documentId: id, data: { body: `note ${id}` } });
        acknowledged.push(id);
        if (acknowledged.length === killAfter) server.child.kill("SIGKILL");
      } catch {
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  await server.exited;
  const integrityAfterKill = integrity(dataDir);

  const again = await startEmulator({ dataDir, port: 0, projectId: server.projectId, apiKey: server.apiKey });
  let stored: Set<string>;
  try {
    stored = await noteIds(
      new Databases(new Client().setEndpoint(again.endpoint).setProject(server.projectId).setKey(server.apiKey)),
    );
  } finally {
    await again.close();
  }
  return {
    acknowledged: acknowledged.length,
    lost: acknowledged.filter((id) => !stored.has(id)),
    integrityAfterKill,
    integrityAfterRestart: integrity(dataDir),
  };
}
