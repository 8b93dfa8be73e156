import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client, Databases, Storage } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { startEmulator } from "../../../embedded-appwrite/server.ts";

const dataDir = mkdtempSync(join(tmpdir(), "emulator-restart-"));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("restart", () => {
  it("given data written before close, when started again on the same dataDir, then identity and data persist", async () => {
    const first = await startEmulator({ dataDir, port: 0 });
    const client1 = new Client().setEndpoint(first.endpoint).setProject(first.projectId).setKey(first.apiKey);
    const db1 = new Databases(client1);
    await db1.create({ databaseId: "main", name: "Main" });
    await db1.createCollection({ databaseId: "main", collectionId: "notes", name: "Notes" });
    await db1.createStringAttribute({
      databaseId: "main",
      collectionId: "notes",
      key: "body",
      size: 100,
      required: true,
    });
    await db1.createDocument({ databaseId: "main", collectionId: "notes", documentId: "n1", data: { body: "kept" } });
    await new Storage(client1).createBucket({ bucketId: "b", name: "B" });
    await new Storage(client1).createFile({
      bucketId: "b",
      fileId: "f",
      file: InputFile.fromBuffer(Buffer.from("bytes"), "f.txt"),
    });
    await first.close();
    expect(statSync(join(dataDir, "project.json")).mode & 0o777).toBe(0o600);

    const second = await startEmulator({ dataDir, port: 0 });
    try {
      expect([second.projectId, second.apiKey]).toEqual([first.projectId, first.apiKey]);
      const client2 = new Client().setEndpoint(second.endpoint).setProject(second.projectId).setKey(second.apiKey);
      const doc = await new Databases(client2).getDocument({
        databaseId: "main",
        collectionId: "notes",
        documentId: "n1",
      });
      expect(doc["body"]).toBe("kept");
      const view = await new Storage(client2).getFileView({ bucketId: "b", fileId: "f" });
      expect(Buffer.from(view).toString()).toBe("bytes");
    } finally {
      await second.close();
    }
  });
});
