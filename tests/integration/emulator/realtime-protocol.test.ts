import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Databases, Permission, Role } from "node-appwrite";
import type { Client } from "node-appwrite";
import { signedInClient, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";
import { rawRealtime } from "./realtime-client.ts";

let env: TestEmulator;
let alice: { client: Client; secret: string };

const raw = (query: string, headers?: Record<string, string>) => rawRealtime(env.emulator.endpoint, query, headers);
const doc = (collectionId: string, documentId: string) => ({ databaseId: "db", collectionId, documentId });

beforeAll(async () => {
  env = await startTestEmulator();
  const admin = new Databases(env.admin);
  await admin.create({ databaseId: "db", name: "DB" });
  await admin.createCollection({
    databaseId: "db",
    collectionId: "diary",
    name: "diary",
    permissions: [Permission.create(Role.users())],
    documentSecurity: true,
  });
  await admin.createStringAttribute({ databaseId: "db", collectionId: "diary", key: "t", size: 50, required: false });
  alice = await signedInClient(env, "alice");
});

afterAll(async () => {
  await env.stop();
});

describe("realtime protocol (raw WebSocket)", () => {
  it("given a ping, then the server answers pong", async () => {
    const client = raw(`project=${env.emulator.projectId}`);
    await client.next("connected");
    await client.send({ type: "ping" });
    expect(await client.next("pong")).toEqual({ type: "pong" });
    await client.send({ type: "nonsense" });
    expect((await client.next("error")).data).toEqual({ code: 1003, message: "Message type is not valid." });
    client.close();
  });

  it("given an unknown project, then an error 1008 is sent and the socket is closed with 1008", async () => {
    const client = raw("project=nope");
    expect((await client.next("error")).data).toEqual({ code: 1008, message: "Missing or unknown project ID" });
    expect(await client.closed).toBe(1008);
  });

  it("given channels[] in the URL and the session cookie, then connected names the user and its subscription gets events", async () => {
    const cookie = `a_session_${env.emulator.projectId}=${alice.secret}`;
    const client = raw(`project=${env.emulator.projectId}&channels[]=account&channels[]=documents`, { cookie });
    const connected = await client.next("connected");
    expect(connected.data?.["channels"]).toEqual(["account", "account.alice", "documents"]);
    expect(connected.data?.["user"]).toMatchObject({ $id: "alice", name: "alice" });
    const [subscriptionId] = connected.data!["subscriptions"] as string[];
    await new Databases(alice.client).createDocument({ ...doc("diary", "cookie"), data: { t: "x" } });
    const event = await client.next("event");
    expect(event.data).toMatchObject({ subscriptions: [subscriptionId], payload: { $id: "cookie" } });
    client.close();
  });

  it("given an invalid session in an authentication message, then error 1003 and the socket stays open", async () => {
    const client = raw(`project=${env.emulator.projectId}`);
    await client.next("connected");
    await client.send({ type: "authentication", data: { session: "bm9wZQ==" } });
    expect((await client.next("error")).data).toEqual({ code: 1003, message: "Session is not valid." });
    const after = client.messages.length;
    await client.send({ type: "ping" });
    await client.next("pong", after);
    client.close();
  });
});
