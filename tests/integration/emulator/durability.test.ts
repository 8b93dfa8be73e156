import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { Client, Databases, Query, Storage } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { startEmulator } from "../../../emulator/server.ts";

const ROOT = join(import.meta.dirname, "../../..");
const temp: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temp.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
}

async function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\n")) resolve(text.split("\n")[0] ?? "");
    });
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before answering: ${text}`)));
  });
}

async function finish(child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, out, err };
}

function integrity(dataDir: string): string {
  const db = new Database(join(dataDir, "emulator.sqlite"), { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

const where = { databaseId: "db", collectionId: "notes" };

async function prepare(client: Client): Promise<Databases> {
  const db = new Databases(client);
  await db.create({ databaseId: "db", name: "DB" });
  await db.createCollection({ ...where, name: "Notes" });
  await db.createStringAttribute({ ...where, key: "body", size: 100, required: true });
  return db;
}

async function allIds(db: Databases): Promise<Set<string>> {
  const list = await db.listDocuments({ ...where, queries: [Query.select(["$id"]), Query.limit(5000)] });
  return new Set(list.documents.map((d) => d.$id));
}

describe("durability", () => {
  it("given a burst of writes, when the server is killed with SIGKILL, then every acknowledged write survives and integrity_check is ok", async () => {
    const dataDir = tempDir("emulator-kill-");
    const child = run(["tests/integration/emulator/fixtures/serve.ts", dataDir]);
    const { endpoint } = JSON.parse(await firstLine(child)) as { endpoint: string };
    const db = await prepare(new Client().setEndpoint(endpoint).setProject("durable").setKey("durable-key"));
    const acknowledged: string[] = [];
    let next = 0;
    const worker = async () => {
      for (;;) {
        const id = `n${next++}`;
        try {
          await db.createDocument({ ...where, documentId: id, data: { body: `note ${id}` } });
          acknowledged.push(id);
          if (acknowledged.length === 300) child.kill("SIGKILL");
        } catch {
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);
    expect(integrity(dataDir)).toBe("ok");

    const again = await startEmulator({ dataDir, port: 0, projectId: "durable", apiKey: "durable-key" });
    try {
      const client = new Client().setEndpoint(again.endpoint).setProject("durable").setKey("durable-key");
      const stored = await allIds(new Databases(client));
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      await again.close();
    }
    expect(integrity(dataDir)).toBe("ok");
  });

  it("given writes in flight, when backed up with the CLI and restored elsewhere, then the snapshot is complete and consistent", async () => {
    const dataDir = tempDir("emulator-live-");
    const emulator = await startEmulator({ dataDir, port: 0 });
    const client = new Client().setEndpoint(emulator.endpoint).setProject(emulator.projectId).setKey(emulator.apiKey);
    const db = await prepare(client);
    const storage = new Storage(client);
    await storage.createBucket({ bucketId: "b", name: "B" });
    const bytes = Buffer.from("backup me");
    await storage.createFile({ bucketId: "b", fileId: "f", file: InputFile.fromBuffer(bytes, "f.txt") });
    for (let i = 0; i < 50; i++) await db.createDocument({ ...where, documentId: `before${i}`, data: { body: "x" } });
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) await db.createDocument({ ...where, documentId: `during${written++}`, data: { body: "y" } });
    })();
    const backupDir = join(tempDir("emulator-backup-"), "snapshot");
    const backup = await finish(run(["emulator/backup.ts", "backup", dataDir, backupDir]));
    writing = false;
    await writer;
    await emulator.close();
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.out)).toMatchObject({ integrity: "ok", missing: [] });
    expect(written).toBeGreaterThan(0);

    const restoredDir = tempDir("emulator-restored-");
    const restore = await finish(run(["emulator/backup.ts", "restore", backupDir, restoredDir]));
    expect([restore.code, restore.err]).toEqual([0, ""]);
    const restored = await startEmulator({ dataDir: restoredDir, port: 0 });
    try {
      expect(restored.projectId).toBe(emulator.projectId);
      const restoredClient = new Client()
        .setEndpoint(restored.endpoint)
        .setProject(restored.projectId)
        .setKey(restored.apiKey);
      const ids = await allIds(new Databases(restoredClient));
      expect(Array.from({ length: 50 }, (_, i) => `before${i}`).every((id) => ids.has(id))).toBe(true);
      const view = await new Storage(restoredClient).getFileView({ bucketId: "b", fileId: "f" });
      expect(Buffer.from(view).equals(bytes)).toBe(true);
    } finally {
      await restored.close();
    }
  });

  it("given a data folder a live emulator holds, when restoring into it, then the command refuses", async () => {
    const held = tempDir("emulator-held-");
    writeFileSync(join(held, "emulator.lock"), JSON.stringify({ pid: process.pid }));
    const source = tempDir("emulator-src-");
    const emulator = await startEmulator({ dataDir: source, port: 0 });
    await emulator.close();
    const backupDir = join(tempDir("emulator-b-"), "snap");
    expect((await finish(run(["emulator/backup.ts", "backup", source, backupDir]))).code).toBe(0);
    const refused = await finish(run(["emulator/backup.ts", "restore", backupDir, held]));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("stop it before restoring");
  });
});
