/**
 * ARCHITECTURE decision 4: `model/appwrite.json` is generated from the content model (`model/model.ts`
 * through `model/appwrite.ts`); the committed file must be exactly what `npm run schema` writes.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { APPWRITE_JSON, appwriteJsonText } from "../../scripts/dev/appwrite-json.ts";
import {
  CONTENT_MODEL,
  HISTORY_MODEL,
  MEDIA_MODEL,
  SERVICE_MODEL,
  SUBMISSION_MODEL,
  TRASH_MODEL,
} from "../../model/model.ts";
import { LIFECYCLE_ATTRIBUTES } from "../../model/lifecycle.ts";
import { PROJECT_ID } from "../../model/content.ts";
import { EMBEDDED_PROJECT_ID } from "../../embedded-appwrite/embedded.ts";

describe("model/appwrite.json", () => {
  it("given the content model, when generated, then it equals the committed file byte for byte", async () => {
    expect(await readFile(APPWRITE_JSON, "utf8")).toBe(await appwriteJsonText());
  });

  it("has one collection per kind, each with every field of its description as an attribute, in order", async () => {
    const schema = JSON.parse(await readFile(APPWRITE_JSON, "utf8")) as {
      collections: { $id: string; attributes: { key: string }[] }[];
    };
    const kinds = [
      ...Object.values(CONTENT_MODEL),
      ...Object.values(SUBMISSION_MODEL),
      ...Object.values(SERVICE_MODEL),
      ...Object.values(HISTORY_MODEL),
      ...Object.values(MEDIA_MODEL),
      ...Object.values(TRASH_MODEL),
    ];
    expect(schema.collections.map((c) => c.$id)).toEqual(kinds.map((k) => k.collectionId));
    // Ventures and posts end with the lifecycle's columns (issue #16, model/lifecycle.ts).
    const lifecycle = LIFECYCLE_ATTRIBUTES.map((a) => a.key);
    for (const [i, kind] of kinds.entries()) {
      const extra = i < Object.keys(CONTENT_MODEL).length ? lifecycle : [];
      expect(schema.collections[i]!.attributes.map((a) => a.key)).toEqual([...Object.keys(kind.fields), ...extra]);
    }
  });

  it("names the project the embedded server takes for a new data folder (SECURITY C75)", async () => {
    const schema = JSON.parse(await readFile(APPWRITE_JSON, "utf8")) as { projectId: string };
    expect(schema.projectId).toBe(PROJECT_ID);
    expect(EMBEDDED_PROJECT_ID).toBe(PROJECT_ID);
  });

  it("holds every collection again as a table, so `appwrite push tables` deletes no database (SECURITY C75)", async () => {
    const schema = JSON.parse(await readFile(APPWRITE_JSON, "utf8")) as {
      databases: unknown[];
      tablesDB: unknown[];
      collections: { $id: string; attributes: { key: string }[] }[];
      tables: { $id: string; columns: { key: string }[] }[];
    };
    expect(schema.tablesDB).toEqual(schema.databases);
    expect(schema.tables.map((t) => [t.$id, t.columns.map((c) => c.key)])).toEqual(
      schema.collections.map((c) => [c.$id, c.attributes.map((a) => a.key)]),
    );
  });
});
