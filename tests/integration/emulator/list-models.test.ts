/**
 * The documents list builds each `Document` model straight from its row (`services/document-list.ts`);
 * `get` builds it through `documentModel`. Every listed document must be, byte for byte in its JSON, what
 * `get` returns for it with the same `select`, for every attribute type, arrays, nulls and permissions,
 * with the API key and as a guest under document security (the guest sees only what it may read).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Databases, Permission, Query, Role } from "node-appwrite";
import { startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
const where = { databaseId: "shapes", collectionId: "things" };

beforeAll(async () => {
  env = await startTestEmulator();
  const db = new Databases(env.admin);
  await db.create({ databaseId: "shapes", name: "Shapes" });
  await db.createCollection({
    ...where,
    name: "Things",
    documentSecurity: true,
    permissions: [Permission.create(Role.users())],
  });
  await db.createStringAttribute({ ...where, key: "title", size: 100, required: true });
  await db.createIntegerAttribute({ ...where, key: "count", required: false });
  await db.createFloatAttribute({ ...where, key: "ratio", required: false });
  await db.createBooleanAttribute({ ...where, key: "flag", required: false });
  await db.createDatetimeAttribute({ ...where, key: "when", required: false });
  await db.createEmailAttribute({ ...where, key: "mail", required: false });
  await db.createEnumAttribute({ ...where, key: "kind", elements: ["a", "b"], required: false });
  await db.createStringAttribute({ ...where, key: "tags", size: 20, required: false, array: true });
  await db.createBooleanAttribute({ ...where, key: "bits", required: false, array: true });
  await db.createIntegerAttribute({ ...where, key: "nums", required: false, array: true });
  const full = {
    title: 'Quotes " and \\ and é',
    count: 9007199254740991,
    ratio: 0.25,
    flag: true,
    when: "2026-02-03T04:05:06.789+00:00",
    mail: "a@example.com",
    kind: "b",
    tags: ["x", "y"],
    bits: [true, false],
    nums: [1, -2],
  };
  await db.createDocument({ ...where, documentId: "full", data: full, permissions: [Permission.read(Role.any())] });
  await db.createDocument({ ...where, documentId: "sparse", data: { title: "Sparse", flag: false } });
  await db.createDocument({
    ...where,
    documentId: "hidden",
    data: { title: "Hidden", nums: [] },
    permissions: [Permission.read(Role.user("someone"))],
  });
});

afterAll(async () => {
  await env.stop();
});

async function getText(path: string, key: boolean): Promise<string> {
  const headers: Record<string, string> = { "X-Appwrite-Project": env.emulator.projectId };
  if (key) headers["X-Appwrite-Key"] = env.emulator.apiKey;
  const response = await fetch(`${env.emulator.endpoint}${path}`, { headers });
  expect(response.status, path).toBe(200);
  return response.text();
}

function queryString(queries: string[]): string {
  return queries.map((q, i) => `queries[${i}]=${encodeURIComponent(q)}`).join("&");
}

const base = `/databases/${where.databaseId}/collections/${where.collectionId}/documents`;
const SELECTS = [[], [Query.select(["title", "flag", "nums"])], [Query.select(["*"])], [Query.select(["$id"])]];

describe("documents list models", () => {
  for (const key of [true, false]) {
    it(`given ${key ? "the API key" : "a guest"} and each select, then every listed document is the JSON get returns`, async () => {
      for (const select of SELECTS) {
        const list = JSON.parse(await getText(`${base}?${queryString(select)}`, key)) as {
          total: number;
          documents: { $id: string }[];
        };
        expect(list.documents.map((d) => d.$id)).toEqual(key ? ["full", "sparse", "hidden"] : ["full"]);
        expect(list.total).toBe(list.documents.length);
        for (const listed of list.documents) {
          const single = await getText(`${base}/${listed.$id}?${queryString(select)}`, key);
          expect(JSON.stringify(listed), `${listed.$id} ${select.join(",")}`).toBe(single);
        }
      }
    });
  }
});
