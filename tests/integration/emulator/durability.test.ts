import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client, Databases, Storage } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { startEmulator } from "../../../embedded-appwrite/server.ts";
import { killDuringWrites, NOTES as where, noteIds, prepareNotes } from "../../../scripts/dev/durability.ts";

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

async function finish(child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, out, err };
}

describe("durability", () => {
  it("given a burst of writes, when the server is killed with SIGKILL, then every acknowledged write survives and integrity_check is ok", async () => {
    const report = await killDuringWrites(tempDir("emulator-kill-"));

    expect(report.acknowledged).toBeGreaterThanOrEqual(300);
    expect(report.integrityAfterKill).toBe("ok");
    expect(report.lost).toEqual([]);
    expect(report.integrityAfterRestart).toBe("ok");
  });

  it("given writes in flight, when backed up with the CLI and restored elsewhere, then the snapshot is complete and consistent", async () => {
    const dataDir = tempDir("emulator-live-");
    const emulator = await startEmulator({ dataDir, port: 0 });
    const client = new Client().setEndpoint(emulator.endpoint).setProject(emulator.projectId).setKey(emulator.apiKey);
    const db = await prepareNotes(client);
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
    const backup = await finish(run(["embedded-appwrite/backup.ts", "backup", dataDir, backupDir]));
    writing = false;
    await writer;
    await emulator.close();
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.out)).toMatchObject({ integrity: "ok", missing: [] });
    expect(written).toBeGreaterThan(0);

    const restoredDir = tempDir("emulator-restored-");
    const restore = await finish(run(["embedded-appwrite/backup.ts", "restore", backupDir, restoredDir]));
    expect([restore.code, restore.err]).toEqual([0, ""]);
    const restored = await startEmulator({ dataDir: restoredDir, port: 0 });
    try {
      expect(restored.projectId).toBe(emulator.projectId);
      const restoredClient = new Client()
        .setEndpoint(restored.endpoint)
        .setProject(restored.projectId)
        .setKey(restored.apiKey);
      const ids = await noteIds(new Databases(restoredClient));
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
    expect((await finish(run(["embedded-appwrite/backup.ts", "backup", source, backupDir]))).code).toBe(0);
    const refused = await finish(run(["embedded-appwrite/backup.ts", "restore", backupDir, held]));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("stop it before restoring");
  });
});
