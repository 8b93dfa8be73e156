/**
 * SECURITY C73 (issue #26 item 6): the embedded server's data is private. `DATA_DIR` (Argon2 hashes, e-mails,
 * drafts, contact messages, uploads, the API key) is created 0700 and what it holds 0600 (folders 0700),
 * SQLite's -wal and -shm files included; an existing folder is tightened when the server starts; backups and
 * restores get the same modes. The umask is set to the usual 022 for each test, so nothing here passes
 * because of a strict umask.
 */
import { chmod, lstat, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ID } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backupDataDir, restoreDataDir } from "../../embedded-appwrite/backup.ts";
import { startEmulator, type RunningEmulator } from "../../embedded-appwrite/server.ts";
import { createAdminServices, type AdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { loadPreviewSecret } from "../../lib/publish/preview-link.ts";
import { lockPathFor } from "../../lib/publish/lock.ts";
import { push } from "../../lib/publish/push.ts";
import { IMAGES_BUCKET_ID } from "../../model/content.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { copyFixtureContent } from "../helpers/stack.ts";

let parent: string;
let umask: number;
const running: RunningEmulator[] = [];

beforeEach(async () => {
  umask = process.umask(0o022);
  parent = await mkdtemp(path.join(tmpdir(), "studio-private-"));
});
afterEach(async () => {
  process.umask(umask);
  for (const emulator of running.splice(0)) await emulator.close();
  await rm(parent, { recursive: true, force: true });
});

async function start(dataDir: string): Promise<AdminServices> {
  const emulator = await startEmulator({ dataDir, port: 0 });
  running.push(emulator);
  return createAdminServices(emulator);
}

/** What makes a data folder worth reading: a user with a password hash, an upload, pushed content, a lock. */
async function fill(services: AdminServices, dataDir: string): Promise<void> {
  await applySchema(services, schema as AppwriteSchema);
  await services.users.create({
    userId: ID.unique(),
    email: "owner@example.com",
    password: "correct horse battery",
    name: "Owner",
  });
  const contentDir = await copyFixtureContent();
  await push(services, { contentDir, lockPath: lockPathFor({ embedded: true, contentDir, dataDir }) });
  await services.storage.createFile({
    bucketId: IMAGES_BUCKET_ID,
    fileId: ID.unique(),
    file: InputFile.fromBuffer(Buffer.from("GIF89a private"), "x.gif"),
  });
  await loadPreviewSecret(undefined, dataDir);
}

/** Every entry under `dir` (itself first) whose mode lets group or other in, as `relative path mode`. */
async function loose(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (at: string) => {
    const stats = await lstat(at);
    if (stats.mode & 0o077) found.push(`${path.relative(dir, at) || "."} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of await readdir(at)) await visit(path.join(at, name));
  };
  await visit(dir);
  return found;
}

/** Every file name under `dir`, relative. */
async function names(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.map(String).sort();
}

describe("DATA_DIR is private (C73)", () => {
  it("is created 0700 with the database, its -wal and -shm, uploads, the key, the lock and the secret 0600", async () => {
    const dataDir = path.join(parent, "data");

    await fill(await start(dataDir), dataDir);

    const mode = async (name: string) => ((await lstat(path.join(dataDir, name))).mode & 0o777).toString(8);
    expect(await mode(".")).toBe("700");
    for (const name of ["emulator.sqlite", "emulator.sqlite-wal", "emulator.sqlite-shm", "project.json"]) {
      expect(await mode(name), name).toBe("600");
    }
    for (const name of ["studio-lock.json", "preview-secret"]) expect(await mode(name), name).toBe("600");
    expect(await names(dataDir)).toEqual(expect.arrayContaining([expect.stringMatching(/^files\/images\/[0-9a-f]+$/)]));
    expect(await loose(dataDir)).toEqual([]);
  });

  it("tightens an existing folder, and everything in it, when the server starts", async () => {
    const dataDir = path.join(parent, "data");
    const services = await start(dataDir);
    await fill(services, dataDir);
    await running.pop()!.close();
    // As an older version left it: everything readable by all.
    await writeFile(path.join(dataDir, "exports-note.json"), "{}", { mode: 0o644 });
    for (const entry of [".", ...(await names(dataDir))]) {
      const at = path.join(dataDir, entry);
      await chmod(at, (await lstat(at)).isDirectory() ? 0o755 : 0o644);
    }
    expect((await loose(dataDir)).length).toBeGreaterThan(5);

    await start(dataDir);

    expect(await loose(dataDir)).toEqual([]);
  });

  it("writes backups and restores with the same modes", async () => {
    const dataDir = path.join(parent, "data");
    await fill(await start(dataDir), dataDir);
    const backup = path.join(parent, "backup");
    const restored = path.join(parent, "restored");

    const made = await backupDataDir(dataDir, backup);
    await running.pop()!.close();
    const back = restoreDataDir(backup, restored);

    expect(made.integrity).toBe("ok");
    expect(back.integrity).toBe("ok");
    expect(await names(backup)).toEqual(expect.arrayContaining(["emulator.sqlite", "project.json"]));
    expect(await loose(backup)).toEqual([]);
    expect(await loose(restored)).toEqual([]);
  });
});
