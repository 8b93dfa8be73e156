import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Databases, Permission, Role, Storage } from "node-appwrite";
import type { Client } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { Channel, Client as WebClient, Realtime } from "appwrite";
import type { RealtimeResponseEvent } from "appwrite";
import { WebSocket } from "ws";
import { signedInClient, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";
import { until } from "./realtime-client.ts";
import type { RealtimeMessage } from "./realtime-client.ts";

/** Every message any socket received, in order (the web SDK ignores `response` messages). */
const received: RealtimeMessage[] = [];

/** The `ws` WebSocket, recording messages: the web SDK uses the global `WebSocket`, which Node 20 lacks. */
class RecordingWebSocket extends WebSocket {
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols);
    this.addEventListener("message", (event) => received.push(JSON.parse(String(event.data)) as RealtimeMessage));
  }
}

let env: TestEmulator;
let alice: { client: Client; secret: string };

const acks = (to: string) => received.filter((m) => m.type === "response" && m.data?.to === to);

/** Wait until the server acknowledged `count` more subscribe messages (the web SDK subscribes by message). */
async function subscribed(count: number, from: number): Promise<void> {
  await until(() => (acks("subscribe").length >= from + count ? true : undefined), `${count} subscription(s)`);
}

const admin = () => new Databases(env.admin);
const doc = (collectionId: string, documentId: string) => ({ databaseId: "db", collectionId, documentId });

beforeAll(async () => {
  const storage = new Map<string, string>();
  const localStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  };
  Object.assign(globalThis, { WebSocket: RecordingWebSocket, window: Object.assign(globalThis, { localStorage }) });
  env = await startTestEmulator();
  await admin().create({ databaseId: "db", name: "DB" });
  const collections: [string, string[], boolean][] = [
    ["news", [Permission.read(Role.any())], false],
    ["diary", [Permission.create(Role.users())], true],
  ];
  for (const [collectionId, permissions, documentSecurity] of collections) {
    await admin().createCollection({
      databaseId: "db",
      collectionId,
      name: collectionId,
      permissions,
      documentSecurity,
    });
    await admin().createStringAttribute({ databaseId: "db", collectionId, key: "t", size: 50, required: false });
  }
  await new Storage(env.admin).createBucket({
    bucketId: "pics",
    name: "Pics",
    permissions: [Permission.read(Role.any())],
  });
  alice = await signedInClient(env, "alice");
});

afterAll(async () => {
  await env.stop();
});

function webClient(): WebClient {
  return new WebClient().setEndpoint(env.emulator.endpoint).setProject(env.emulator.projectId);
}

describe("realtime through the web SDK (REFERENCE §4 Realtime)", () => {
  it("given a guest subscribed to a collection, when documents are created, updated and deleted, then it gets each event", async () => {
    const realtime = new Realtime(webClient());
    const events: RealtimeResponseEvent<Record<string, unknown>>[] = [];
    const before = received.length;
    const acked = acks("subscribe").length;
    const subscription = await realtime.subscribe(Channel.database("db").collection("news").document(), (e) =>
      events.push(e),
    );
    await subscribed(1, acked);
    const connected = received.slice(before).find((m) => m.type === "connected");
    expect(connected?.data).toEqual({ channels: [], subscriptions: [], user: null });

    await admin().createDocument({ ...doc("news", "n1"), data: { t: "hello" } });
    await admin().updateDocument({ ...doc("news", "n1"), data: { t: "edited" } });
    await admin().deleteDocument(doc("news", "n1"));
    await until(() => (events.length >= 3 ? true : undefined), "three events");

    const [created, updated, deleted] = events as [(typeof events)[0], (typeof events)[0], (typeof events)[0]];
    expect(created.events).toContain("databases.db.collections.news.documents.n1.create");
    expect(created.events).toContain("databases.*.collections.*.documents.*.create");
    expect(created.channels).toEqual(
      expect.arrayContaining([
        "documents",
        "databases.db.collections.news.documents",
        "databases.db.collections.news.documents.n1",
        "rows",
        "databases.db.tables.news.rows",
        "tablesdb.db.tables.news.rows.n1",
      ]),
    );
    expect(created.payload).toMatchObject({ $id: "n1", $collectionId: "news", $databaseId: "db", t: "hello" });
    expect(created.subscriptions).toHaveLength(1);
    expect(Date.parse(created.timestamp)).not.toBeNaN();
    expect(updated.events[0]).toBe("databases.db.collections.news.documents.n1.update");
    expect(updated.payload).toMatchObject({ $id: "n1", t: "edited" });
    expect(deleted.events[0]).toBe("databases.db.collections.news.documents.n1.delete");
    expect(deleted.payload).toMatchObject({ $id: "n1", t: "edited" });

    await subscription.close();
    await realtime.disconnect();
  });

  it("given a guest and a signed-in user, then only the owner gets the events of a private document", async () => {
    const acked = acks("subscribe").length;
    const guestRealtime = new Realtime(webClient());
    const guestEvents: RealtimeResponseEvent<Record<string, unknown>>[] = [];
    await guestRealtime.subscribe(["documents"], (e) => guestEvents.push(e));
    const aliceRealtime = new Realtime(webClient().setSession(alice.secret));
    const aliceEvents: RealtimeResponseEvent<Record<string, unknown>>[] = [];
    const before = received.length;
    await aliceRealtime.subscribe(Channel.database("db").collection("diary").document(), (e) => aliceEvents.push(e));
    const auth = await until(
      () => received.slice(before).find((m) => m.type === "response" && m.data?.to === "authentication"),
      "authentication response",
    );
    expect(auth.data).toMatchObject({ success: true, user: { $id: "alice", email: "alice@example.com" } });
    await subscribed(2, acked);

    // Alice's session creates it: default permissions are hers only (REFERENCE §6).
    await new Databases(alice.client).createDocument({ ...doc("diary", "secret"), data: { t: "dear diary" } });
    await admin().createDocument({ ...doc("news", "public"), data: { t: "for all" } });
    await until(() => (guestEvents.length >= 1 ? true : undefined), "the guest's public event");
    await until(() => (aliceEvents.length >= 1 ? true : undefined), "alice's private event");
    expect(guestEvents.map((e) => e.payload["$id"])).toEqual(["public"]);
    expect(aliceEvents.map((e) => e.payload["$id"])).toEqual(["secret"]);
    expect(aliceEvents[0]?.payload["$permissions"]).toEqual([
      'read("user:alice")',
      'update("user:alice")',
      'delete("user:alice")',
    ]);
    await guestRealtime.disconnect();
    await aliceRealtime.disconnect();
  });

  it("given an unsubscribed subscription, then its events stop while the others go on", async () => {
    const realtime = new Realtime(webClient());
    const first: string[] = [];
    const second: string[] = [];
    const acked = acks("subscribe").length;
    const a = await realtime.subscribe("documents", (e) => first.push(e.events[0] ?? ""));
    await realtime.subscribe(Channel.database("db").collection("news").document(), (e) =>
      second.push(e.events[0] ?? ""),
    );
    await subscribed(2, acked);
    const unsubscribed = acks("unsubscribe").length;
    await a.unsubscribe();
    const ack = await until(() => acks("unsubscribe")[unsubscribed], "unsubscribe response");
    expect(ack.data?.["subscriptions"]).toEqual([{ subscriptionId: expect.any(String), removed: true }]);
    await admin().createDocument({ ...doc("news", "after"), data: { t: "x" } });
    await until(() => (second.length >= 1 ? true : undefined), "the remaining subscription's event");
    expect(first).toEqual([]);
    await realtime.disconnect();
  });

  it("given a bucket subscription, when a file is uploaded and deleted, then both events arrive", async () => {
    const realtime = new Realtime(webClient());
    const events: RealtimeResponseEvent<Record<string, unknown>>[] = [];
    const acked = acks("subscribe").length;
    await realtime.subscribe(Channel.bucket("pics").file(), (e) => events.push(e));
    await subscribed(1, acked);
    const storage = new Storage(env.admin);
    await storage.createFile({
      bucketId: "pics",
      fileId: "f1",
      file: InputFile.fromBuffer(Buffer.from("hi"), "a.txt"),
    });
    await storage.deleteFile({ bucketId: "pics", fileId: "f1" });
    await until(() => (events.length >= 2 ? true : undefined), "two file events");
    expect(events[0]?.events).toContain("buckets.pics.files.f1.create");
    expect(events[0]?.channels).toEqual(
      expect.arrayContaining(["files", "buckets.pics.files", "buckets.pics.files.f1"]),
    );
    expect(events[0]?.payload).toMatchObject({ $id: "f1", bucketId: "pics", name: "a.txt", sizeOriginal: 2 });
    expect(events[1]?.events[0]).toBe("buckets.pics.files.f1.delete");
    await realtime.disconnect();
  });

  it("given the deprecated client.subscribe, then its callback gets the events too", async () => {
    const client = webClient();
    const events: string[] = [];
    const acked = acks("subscribe").length;
    const unsubscribe = client.subscribe<Record<string, unknown>>("databases.db.collections.news.documents", (e) =>
      events.push(e.events[0] ?? ""),
    );
    await subscribed(1, acked);
    await admin().createDocument({ ...doc("news", "legacy"), data: { t: "x" } });
    await until(() => (events.length >= 1 ? true : undefined), "the event");
    expect(events).toEqual(["databases.db.collections.news.documents.legacy.create"]);
    unsubscribe();
  });

  it("given an unknown project, then the SDK gets error 1008 and does not reconnect", async () => {
    const realtime = new Realtime(webClient().setProject("nope"));
    const errors: (number | undefined)[] = [];
    let closes = 0;
    realtime.onError((_error, code) => errors.push(code));
    realtime.onClose(() => closes++);
    await realtime.subscribe("documents", () => undefined);
    await until(() => (closes >= 1 ? true : undefined), "the close");
    expect(errors).toEqual([1008]);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(closes).toBe(1);
    await realtime.disconnect();
  });
});
