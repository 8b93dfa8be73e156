/**
 * Document and row lists are written as text, each row's model serialised once and reused while the row's
 * values are unchanged (`services/document-json.ts`, issue #18 item 5). The list's bytes must stay what
 * serialising the models gives: `{"total":N,"documents":[…]}` with each document exactly the JSON `get`
 * returns for it (TablesDB: `{"total":N,"rows":[…]}` with `getRow`'s JSON), on the first list, on a repeat
 * (reused texts) and after a write changed a row (never a stale text), with and without `select`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Databases, Permission, Query, Role } from "node-appwrite";
import { startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
let db: Databases;
const where = { databaseId: "texts", collectionId: "notes" };

beforeAll(async () => {
  env = await startTestEmulator();
  db = new Databases(env.admin);
  await db.create({ databaseId: where.databaseId, name: "Texts" });
  await db.createCollection({ ...where, name: "Notes", permissions: [Permission.read(Role.any())] });
  await db.createStringAttribute({ ...where, key: "title", size: 100, required: true });
  await db.createIntegerAttribute({ ...where, key: "rank", required: false });
  await db.createBooleanAttribute({ ...where, key: "flag", required: false });
  await db.createStringAttribute({ ...where, key: "tags", size: 20, required: false, array: true });
  await db.createDocument({
    ...where,
    documentId: "one",
    data: { title: 'Quotes " \\ é \u2028 😀', rank: 1, flag: true, tags: ["a", "b"] },
  });
  await db.createDocument({ ...where, documentId: "two", data: { title: "Two", rank: 2 } });
});

afterAll(async () => {
  await env.stop();
});

async function text(path: string): Promise<string> {
  const headers = { "X-Appwrite-Project": env.emulator.projectId, "X-Appwrite-Key": env.emulator.apiKey };
  const response = await fetch(`${env.emulator.endpoint}${path}`, { headers });
  expect(response.status, path).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  return response.text();
}

function queryString(queries: string[]): string {
  return queries.map((q, i) => `queries[${i}]=${encodeURIComponent(q)}`).join("&");
}

const documents = `/databases/${where.databaseId}/collections/${where.collectionId}/documents`;
const rows = `/tablesdb/${where.databaseId}/tables/${where.collectionId}/rows`;

/** The list text built from each item's `get` text, as serialising the list models writes it. */
async function expected(base: string, key: "documents" | "rows", queries: string[]): Promise<string> {
  const list = JSON.parse(await text(`${base}?${queryString(queries)}`)) as Record<string, { $id: string }[]>;
  const items = await Promise.all(
    (list[key] ?? []).map((item) =>
      text(`${base}/${item.$id}?${queryString(queries.filter((q) => q.includes("select")))}`),
    ),
  );
  return `{"total":${items.length},"${key}":[${items.join(",")}]}`;
}

describe("list text", () => {
  for (const [base, key] of [
    [documents, "documents"],
    [rows, "rows"],
  ] as const) {
    it(`given ${key}, when listed, repeated and listed after an update, then each list is its items' get JSON`, async () => {
      for (const queries of [[Query.orderAsc("rank")], [Query.orderAsc("rank"), Query.select(["title", "tags"])]]) {
        const path = `${base}?${queryString(queries)}`;
        const first = await text(path);
        expect(first).toBe(await expected(base, key, queries));
        expect(await text(path)).toBe(first);
        const title = `Renamed ${key} ${queries.length}`;
        await db.updateDocument({ ...where, documentId: "two", data: { title } });
        const after = await text(path);
        expect(after).toContain(title);
        expect(after).toBe(await expected(base, key, queries));
      }
    });
  }
});
