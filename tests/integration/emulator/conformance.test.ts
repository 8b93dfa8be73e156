import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as node from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import * as web from "appwrite";
import { startTestEmulator } from "./helpers.ts";
import { inviteSecret } from "./team-invites.ts";
import type { TestEmulator } from "./helpers.ts";
import { SpecValidator, startRecorder } from "./openapi.ts";
import type { Exchange } from "./openapi.ts";

// Drives the emulator only through node-appwrite and the web SDK, behind a recording proxy, and
// validates every JSON response against the 1.8.x OpenAPI response schemas (REFERENCE §8).
const SPECS = [
  "/work/shared/appwrite/openapi/open-api3-1.8.x-server.json",
  "/work/shared/appwrite/openapi/open-api3-1.8.x-client.json",
];

let env: TestEmulator;
let recorder: Awaited<ReturnType<typeof startRecorder>>;
let admin: node.Client;
const storage = new Map<string, string>();

beforeAll(async () => {
  const localStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  };
  Object.assign(globalThis, { window: Object.assign(globalThis, { localStorage }) });
  env = await startTestEmulator();
  recorder = await startRecorder(env.emulator.endpoint);
  admin = new node.Client()
    .setEndpoint(recorder.endpoint)
    .setProject(env.emulator.projectId)
    .setKey(env.emulator.apiKey);
});

afterAll(async () => {
  await recorder.close();
  await env.stop();
});

async function settle<T>(promise: Promise<T>): Promise<T | Error> {
  return promise.catch((error: unknown) => error as Error);
}

/**
 * Teams and memberships: `session` (a signed-in user) owns the team it creates and invites (pending);
 * the API key adds a member at once; a client without a session accepts with the secret.
 */
async function teamsTour(session: node.Client): Promise<void> {
  const teams = new node.Teams(session);
  const adminTeams = new node.Teams(admin);
  const teamId = "crew";
  await teams.create({ teamId, name: "Crew" });
  await teams.list();
  await adminTeams.list({ queries: [node.Query.equal("name", "Crew")] });
  await teams.get({ teamId });
  await teams.updateName({ teamId, name: "Crew!" });
  await teams.updatePrefs({ teamId, prefs: { tz: "UTC" } });
  await teams.getPrefs({ teamId });
  const invite = await teams.createMembership({
    teamId,
    roles: ["editor"],
    email: "lin@example.com",
    url: "http://localhost/join",
  });
  const joined = await adminTeams.createMembership({
    teamId,
    roles: ["viewer"],
    email: "max@example.com",
    name: "Max",
  });
  await teams.listMemberships({ teamId });
  await teams.getMembership({ teamId, membershipId: joined.$id });
  await teams.updateMembership({ teamId, membershipId: joined.$id, roles: ["editor"] });
  const guest = new node.Teams(new node.Client().setEndpoint(recorder.endpoint).setProject(env.emulator.projectId));
  const accept = { teamId, membershipId: invite.$id, userId: invite.userId };
  await settle(guest.updateMembershipStatus({ ...accept, secret: "wrong" }));
  await guest.updateMembershipStatus({ ...accept, secret: inviteSecret(env.dataDir, invite.$id) });
  await new node.Users(admin).listMemberships({ userId: joined.userId });
  await teams.deleteMembership({ teamId, membershipId: joined.$id });
  await teams.delete({ teamId });
  await settle(teams.get({ teamId }));
}

describe("conformance through both SDKs", () => {
  it("given a full tour of the served endpoints, then every response matches its OpenAPI schema", async () => {
    const { ID, Permission, Query, Role } = node;
    const databases = new node.Databases(admin);
    const users = new node.Users(admin);
    const bucket = new node.Storage(admin);
    const where = { databaseId: "tour", collectionId: "posts" };

    // Databases, collections, attributes, indexes (API key).
    await databases.create({ databaseId: "tour", name: "Tour" });
    await databases.list();
    await databases.get({ databaseId: "tour" });
    await databases.update({ databaseId: "tour", name: "Tour!" });
    await databases.createCollection({
      ...where,
      name: "Posts",
      permissions: [Permission.create(Role.users()), Permission.read(Role.any())],
      documentSecurity: true,
    });
    await databases.listCollections({ databaseId: "tour" });
    await databases.createStringAttribute({ ...where, key: "title", size: 64, required: true });
    await databases.createStringAttribute({ ...where, key: "body", size: 500, required: false });
    await databases.createEmailAttribute({ ...where, key: "mail", required: false });
    await databases.createUrlAttribute({ ...where, key: "link", required: false });
    await databases.createIntegerAttribute({ ...where, key: "n", required: false, min: 0, max: 99 });
    await databases.createBooleanAttribute({ ...where, key: "ok", required: false, xdefault: true });
    await databases.createDatetimeAttribute({ ...where, key: "at", required: false });
    await databases.createStringAttribute({ ...where, key: "tags", size: 9, required: false, array: true });
    await databases.updateStringAttribute({ ...where, key: "body", required: false, xdefault: "-" });
    await databases.listAttributes(where);
    await databases.getAttribute({ ...where, key: "n" });
    await databases.createIndex({ ...where, key: "ft", type: node.DatabasesIndexType.Fulltext, attributes: ["body"] });
    await databases.createIndex({
      ...where,
      key: "k",
      type: node.DatabasesIndexType.Key,
      attributes: ["n"],
      orders: [node.OrderBy.Desc],
    });
    await databases.listIndexes(where);
    await databases.getIndex({ ...where, key: "k" });
    await databases.getCollection(where);

    // Documents and queries.
    await databases.createDocument({ ...where, documentId: "d1", data: { title: "One", body: "hello world", n: 1 } });
    await databases.upsertDocument({
      ...where,
      documentId: "d2",
      data: { title: "Two", tags: ["a"], at: "2024-01-01" },
    });
    await databases.updateDocument({ ...where, documentId: "d2", data: { n: 2 } });
    await databases.getDocument({ ...where, documentId: "d1", queries: [Query.select(["title"])] });
    await databases.listDocuments({
      ...where,
      queries: [Query.search("body", "hello"), Query.orderDesc("n"), Query.limit(5)],
    });
    await settle(databases.listDocuments({ ...where, queries: [Query.cursorAfter("missing")] }));
    await settle(databases.getDocument({ ...where, documentId: "missing" }));

    // Bulk documents and transactions (1.8+) through the Databases API.
    const bulk = [
      { $id: "b1", title: "Bulk 1" },
      { $id: "b2", title: "Bulk 2" },
    ];
    await databases.createDocuments({ ...where, documents: bulk });
    await databases.upsertDocuments({ ...where, documents: [{ $id: "b1", title: "Bulk one" }] });
    await databases.updateDocuments({ ...where, data: { n: 3 }, queries: [Query.startsWith("$id", "b")] });
    const tx = await databases.createTransaction({ ttl: 120 });
    await databases.createDocument({ ...where, documentId: "b3", data: { title: "Staged" }, transactionId: tx.$id });
    await databases.createOperations({
      transactionId: tx.$id,
      operations: [{ action: "delete", databaseId: "tour", collectionId: "posts", documentId: "b2" }],
    });
    await databases.listDocuments({ ...where, transactionId: tx.$id });
    await databases.getTransaction({ transactionId: tx.$id });
    await databases.listTransactions();
    await databases.updateTransaction({ transactionId: tx.$id, commit: true });
    await settle(databases.updateTransaction({ transactionId: tx.$id, commit: true }));
    await databases.deleteDocuments({ ...where, queries: [Query.startsWith("$id", "b")] });
    await databases.deleteTransaction({ transactionId: tx.$id });

    // Users (API key).
    await users.create({ userId: "ada", email: "ada@example.com", password: "password-123", name: "Ada" });
    await users.list({ queries: [Query.equal("name", "Ada")] });
    await users.get({ userId: "ada" });
    await users.updateName({ userId: "ada", name: "Ada L" });
    await users.updatePassword({ userId: "ada", password: "password-456" });
    await users.updatePrefs({ userId: "ada", prefs: { a: 1 } });
    await users.getPrefs({ userId: "ada" });
    await users.updateLabels({ userId: "ada", labels: ["x"] });
    const serverSession = await users.createSession({ userId: "ada" });
    await users.listSessions({ userId: "ada" });
    await users.createJWT({ userId: "ada" });
    await users.deleteSession({ userId: "ada", sessionId: serverSession.$id });
    await settle(users.get({ userId: "nobody" }));

    // Account and sessions through the node SDK (SSR pattern) and the web SDK.
    const ssr = await new node.Account(admin).createEmailPasswordSession({
      email: "ada@example.com",
      password: "password-456",
    });
    const session = new node.Client()
      .setEndpoint(recorder.endpoint)
      .setProject(env.emulator.projectId)
      .setSession(ssr.secret);
    const account = new node.Account(session);
    await account.get();
    await account.updateName({ name: "Ada Lovelace" });
    await account.updatePrefs({ prefs: { theme: "dark" } });
    await account.getPrefs();
    await account.listSessions();
    await account.getSession({ sessionId: "current" });
    await account.createJWT();
    await account.updatePassword({ password: "password-789", oldPassword: "password-456" });
    await new node.Databases(session).createDocument({ ...where, documentId: ID.unique(), data: { title: "Mine" } });
    await teamsTour(session);
    await account.deleteSession({ sessionId: "current" });

    const browser = new web.Client().setEndpoint(recorder.endpoint).setProject(env.emulator.projectId);
    const webAccount = new web.Account(browser);
    await webAccount.create({ userId: "grace", email: "grace@example.com", password: "password-123" });
    await webAccount.createEmailPasswordSession({ email: "grace@example.com", password: "password-123" });
    await webAccount.get();
    await webAccount.listSessions();
    await new web.Databases(browser).listDocuments({ ...where, queries: [web.Query.limit(2)] });
    await new web.Databases(browser).createDocument({ ...where, documentId: "g1", data: { title: "Grace" } });
    const webTx = await new web.Databases(browser).createTransaction();
    await new web.Databases(browser).createDocument({
      ...where,
      documentId: "g2",
      data: { title: "Grace staged" },
      transactionId: webTx.$id,
    });
    await new web.Databases(browser).updateTransaction({ transactionId: webTx.$id, rollback: true });
    await new web.Storage(browser).listFiles({ bucketId: "files" }).catch(() => undefined);
    await webAccount.deleteSessions();
    await settle(webAccount.get());
    await webAccount.createAnonymousSession();
    await webAccount.deleteSession({ sessionId: "current" });

    // Storage.
    await bucket.createBucket({ bucketId: "files", name: "Files", permissions: [Permission.read(Role.any())] });
    await bucket.listBuckets();
    await bucket.getBucket({ bucketId: "files" });
    await bucket.updateBucket({ bucketId: "files", name: "Files!", permissions: [Permission.read(Role.any())] });
    const big = Buffer.alloc(6 * 1024 * 1024, 7);
    await bucket.createFile({ bucketId: "files", fileId: "big", file: InputFile.fromBuffer(big, "big.bin") });
    await bucket.createFile({
      bucketId: "files",
      fileId: "small",
      file: InputFile.fromBuffer(Buffer.from("hi"), "a.txt"),
    });
    await bucket.listFiles({ bucketId: "files", queries: [Query.orderDesc("sizeOriginal")] });
    await bucket.getFile({ bucketId: "files", fileId: "small" });
    await bucket.updateFile({ bucketId: "files", fileId: "small", name: "b.txt" });
    await bucket.getFileView({ bucketId: "files", fileId: "small" });
    await bucket.getFileDownload({ bucketId: "files", fileId: "small" });
    await bucket.deleteFile({ bucketId: "files", fileId: "small" });
    await settle(bucket.getFile({ bucketId: "files", fileId: "small" }));

    // Messaging (e-mail): SMTP providers, users' targets, messages (a draft: nothing is sent).
    const messaging = new node.Messaging(admin);
    await messaging.createSMTPProvider({
      providerId: "smtp",
      name: "SMTP",
      host: "127.0.0.1",
      fromEmail: "studio@example.com",
      enabled: true,
    });
    await messaging.updateSMTPProvider({ providerId: "smtp", name: "SMTP!", port: 2525 });
    await messaging.listProviders();
    await messaging.getProvider({ providerId: "smtp" });
    await users.listTargets({ userId: "ada" });
    await users.createTarget({
      userId: "ada",
      targetId: "ada-mail",
      providerType: node.MessagingProviderType.Email,
      identifier: "ada.second@example.com",
    });
    await users.getTarget({ userId: "ada", targetId: "ada-mail" });
    await users.updateTarget({ userId: "ada", targetId: "ada-mail", name: "Second" });
    await messaging.createEmail({
      messageId: "m1",
      subject: "Hi",
      content: "مرحبا",
      targets: ["ada-mail"],
      draft: true,
    });
    await messaging.updateEmail({ messageId: "m1", subject: "Hello" });
    await messaging.listMessages({ queries: [Query.equal("status", "draft")] });
    await messaging.getMessage({ messageId: "m1" });
    await settle(messaging.getMessage({ messageId: "missing" }));
    await messaging.delete({ messageId: "m1" });
    await users.deleteTarget({ userId: "ada", targetId: "ada-mail" });
    await messaging.deleteProvider({ providerId: "smtp" });

    // Clean-up endpoints.
    await databases.deleteDocument({ ...where, documentId: "d1" });
    await databases.deleteIndex({ ...where, key: "k" });
    await databases.deleteAttribute({ ...where, key: "n" });
    await databases.deleteCollection(where);
    await databases.delete({ databaseId: "tour" });
    await users.delete({ userId: "ada" });
    await bucket.deleteBucket({ bucketId: "files" });

    const validator = new SpecValidator(SPECS);
    const problems = recorder.log.flatMap((exchange: Exchange) => validator.check(exchange));
    expect(problems).toEqual([]);
    const json = recorder.log.filter((e) => e.contentType.includes("application/json"));
    expect(json.length).toBeGreaterThan(65);
    expect(new Set(recorder.log.map((e) => e.status))).toEqual(new Set([200, 201, 202, 204, 400, 401, 404]));
  });

  it("given responses that break the spec, then the validator reports each problem", () => {
    const validator = new SpecValidator(SPECS);
    const base = { contentType: "application/json", status: 200 };
    const noId = {
      ...base,
      method: "GET",
      path: "/v1/databases/a/collections/b/documents/c",
      body: '{"$sequence":"1"}',
    };
    expect(validator.check(noId).join("\n")).toContain("must have required property '$id'");
    const wrongStatus = { ...base, method: "POST", path: "/v1/account/sessions/email", body: "{}" };
    expect(validator.check(wrongStatus)).toEqual(["POST /v1/account/sessions/email → 200: status not in spec (201)"]);
    const unknown = { ...base, method: "GET", path: "/v1/nope", body: "{}" };
    expect(validator.check(unknown)).toEqual(["GET /v1/nope → 200: no such operation in the spec"]);
    const errorBody = {
      ...base,
      status: 404,
      method: "GET",
      path: "/v1/account",
      body: '{"message":"x","code":"404"}',
    };
    expect(validator.check(errorBody).join("\n")).toContain("/code must be integer");
  });
});
