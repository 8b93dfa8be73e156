/**
 * ARCHITECTURE decision 4: `schemas/appwrite.json` is generated from the content model (`schemas/model.ts`
 * through `schemas/appwrite.ts`); the committed file must be exactly what `npm run schema` writes.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { APPWRITE_JSON, appwriteJsonText } from "../../scripts/dev/appwrite-json.ts";
import { CONTENT_MODEL, HISTORY_MODEL, SERVICE_MODEL, SUBMISSION_MODEL } from "../../schemas/model.ts";
import { LIFECYCLE_ATTRIBUTES } from "../../schemas/lifecycle.ts";

describe("schemas/appwrite.json", () => {
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
    ];
    expect(schema.collections.map((c) => c.$id)).toEqual(kinds.map((k) => k.collectionId));
    // Ventures and posts end with the lifecycle's columns (issue #16, schemas/lifecycle.ts).
    const lifecycle = LIFECYCLE_ATTRIBUTES.map((a) => a.key);
    for (const [i, kind] of kinds.entries()) {
      const extra = i < Object.keys(CONTENT_MODEL).length ? lifecycle : [];
      expect(schema.collections[i]!.attributes.map((a) => a.key)).toEqual([...Object.keys(kind.fields), ...extra]);
    }
  });
});
