import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type AppwriteException, Client, ID, Query, TablesDB } from "node-appwrite";
import { Store } from "../../../embedded-appwrite/db/store.ts";
import { startEmulator } from "../../../embedded-appwrite/server.ts";

// Group commit (issue #33 item 4): the writes of one event-loop turn share one transaction, committed when the
// turn ends; nothing is acknowledged before it is durable.
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "group-commit-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function notesStore(dir: string): Store {
  const store = new Store(dir, { groupCommit: true });
  store.exec(`CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, body TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS parents (id TEXT PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS children (id TEXT PRIMARY KEY,
      parent TEXT REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED);`);
  return store;
}

describe("the store's group commit", () => {
  it("commits a turn's writes together when the turn ends, and a throw rolls back only its own", async () => {
    const dir = tempDir();
    const store = notesStore(dir);
    const reader = new Store(dir);
    const insert = (id: string) => store.stmt("INSERT INTO notes (id, body) VALUES (?, 'x')").run(id);
    store.transaction(() => insert("a"));
    expect(() =>
      store.transaction(() => {
        insert("b");
        insert("a"); // taken: this transaction fails, and with it its "b"
      }),
    ).toThrow(/UNIQUE/);
    store.transaction(() => insert("c"));
    const ids = () => reader.stmt("SELECT id FROM notes ORDER BY id").pluck().all();
    // Not yet durable: another connection sees none of it, and whoever answers must wait.
    expect(ids()).toEqual([]);
    const committed = store.committed();
    expect(committed).toBeInstanceOf(Promise);
    const after: string[] = [];
    store.afterCommit(() => after.push(ids().join(",")));
    await committed;
    expect(ids()).toEqual(["a", "c"]);
    expect(after).toEqual(["a,c"]);
    expect(store.committed()).toBeUndefined();
    store.afterCommit(() => after.push("now"));
    expect(after).toEqual(["a,c", "now"]);
    reader.close();
    store.close();
  });

  it("rolls the whole turn back when its commit fails, rejects the wait and drops what was to follow", async () => {
    const dir = tempDir();
    const store = notesStore(dir);
    // A request that writes in more than one turn takes a mark first: a failed turn since is seen by it.
    const mark = store.commitMark();
    store.transaction(() => store.stmt("INSERT INTO notes (id, body) VALUES ('kept-not', 'x')").run());
    // A deferred foreign key is checked at COMMIT: this child's parent does not exist.
    store.transaction(() => store.stmt("INSERT INTO children (id, parent) VALUES ('orphan', 'missing')").run());
    const after: string[] = [];
    store.afterCommit(() => after.push("delivered"));
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (...args: unknown[]) => errors.push(args[0]);
    try {
      await expect(store.committed()).rejects.toThrow(/FOREIGN KEY/);
    } finally {
      console.error = log;
    }
    expect(errors).toEqual([expect.stringContaining("rolled back")]);
    expect(after).toEqual([]);
    expect(store.stmt("SELECT COUNT(*) FROM notes").pluck().get()).toBe(0);
    expect(store.db.inTransaction).toBe(false);
    expect(store.failedSince(mark)).toBe(true);
    // The next turn starts clean.
    const next = store.commitMark();
    store.transaction(() => store.stmt("INSERT INTO notes (id, body) VALUES ('next', 'x')").run());
    await store.committed();
    expect(store.failedSince(next)).toBe(false);
    expect(store.stmt("SELECT id FROM notes").pluck().all()).toEqual(["next"]);
    store.close();
  });

  it("fails the turn when SQLite rolled its transaction back before the commit", async () => {
    const dir = tempDir();
    const store = notesStore(dir);
    store.transaction(() => store.stmt("INSERT INTO notes (id, body) VALUES ('lost', 'x')").run());
    const lost = store.committed();
    // What SQLite does by itself on SQLITE_FULL or SQLITE_IOERR: the whole transaction is gone.
    store.db.exec("ROLLBACK");
    const log = console.error;
    console.error = () => undefined;
    try {
      // A write later in the same turn starts a new group; the lost one's waiters hear of it at once.
      store.transaction(() => store.stmt("INSERT INTO notes (id, body) VALUES ('after', 'x')").run());
      await expect(lost).rejects.toThrow(/rolled back before its commit/);
      await store.committed();
    } finally {
      console.error = log;
    }
    expect(store.stmt("SELECT id FROM notes").pluck().all()).toEqual(["after"]);
    store.close();
  });

  it("commits what is open when the store closes", () => {
    const dir = tempDir();
    const store = notesStore(dir);
    store.transaction(() => store.stmt("INSERT INTO notes (id, body) VALUES ('last', 'x')").run());
    store.close();
    const reopened = new Store(dir);
    expect(reopened.stmt("SELECT id FROM notes").pluck().all()).toEqual(["last"]);
    reopened.close();
  });
});

describe("the embedded server under a burst of writes", () => {
  it("answers each createRow by itself (one taken ID is a 409, the rest 201) and keeps every acknowledged row", async () => {
    const dataDir = tempDir();
    const first = await startEmulator({ dataDir, port: 0 });
    const client = (target: typeof first) =>
      new TablesDB(new Client().setEndpoint(target.endpoint).setProject(target.projectId).setKey(target.apiKey));
    const tables = client(first);
    const where = { databaseId: "main", tableId: "notes" };
    await tables.create({ databaseId: "main", name: "Main" });
    await tables.createTable({ ...where, name: "Notes" });
    await tables.createStringColumn({ ...where, key: "body", size: 50, required: true });
    await tables.createRow({ ...where, rowId: "taken", data: { body: "first" } });
    const ids = [...Array.from({ length: 20 }, () => ID.unique()), "taken"];
    const answers = await Promise.allSettled(
      ids.map((rowId, i) => tables.createRow({ ...where, rowId, data: { body: `burst ${i}` } })),
    );
    const refused = answers.flatMap((a) => (a.status === "rejected" ? [a.reason as AppwriteException] : []));
    expect(refused.map((e) => [e.code, e.type])).toEqual([[409, "row_already_exists"]]);
    expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(20);
    await first.close();

    const second = await startEmulator({ dataDir, port: 0 });
    try {
      const rows = await client(second).listRows({ ...where, queries: [Query.limit(100)] });
      expect(rows.total).toBe(21);
      expect(rows.rows.find((row) => row.$id === "taken")?.["body"]).toBe("first");
    } finally {
      await second.close();
    }
  });
});
