/**
 * SECURITY C60: the committed schema round-trips through the official Appwrite CLI (npm `appwrite-cli` 12)
 * against the embedded server, with content in it. `appwrite push collections --all --force` of
 * `model/appwrite.json`, twice, changes nothing (before the fix, every plain string attribute showed
 * `encrypt changed from false to undefined` and `--force` deleted ventures' name, shortDescription, caseStudy
 * and userId with their data); every document keeps every field; and what `appwrite pull collections` writes
 * is JSON-equal to the committed file, key order included (only `projectId`, which names the target project,
 * differs; the CLI indents with 4 spaces and Prettier with 2, so the bytes differ).
 * No network: the CLI talks to the loopback endpoint only (no update check: that runs only for --version).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Models } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPages } from "../../lib/appwrite/paginate.ts";
import { push } from "../../lib/publish/push.ts";
import { DATABASE_ID } from "../../model/content.ts";
import { FIXTURE_CONTENT, ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { runAppwriteCli } from "../helpers/appwrite-cli.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

const SCHEMA_FILE = path.join(ROOT, "model/appwrite.json");

let backend: Backend;
let work: string;

beforeAll(async () => {
  backend = await startBackend();
  work = await mkdtemp(path.join(tmpdir(), "appwrite-cli-roundtrip-"));
});
afterAll(async () => {
  await backend?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The official CLI in `work`. */
const appwrite = (args: string[]) => runAppwriteCli(work, args);

/** Every document of the content collections, by `$id`. */
async function allDocuments(): Promise<Record<string, Record<string, unknown>>> {
  const byId: Record<string, Record<string, unknown>> = {};
  for (const collectionId of [CONTENT_MODEL.venture.collectionId, CONTENT_MODEL.post.collectionId]) {
    const pages = listPages((queries) =>
      backend.services.databases
        .listDocuments({ databaseId: DATABASE_ID, collectionId, queries })
        .then((page) => page.documents),
    );
    for await (const documents of pages) {
      for (const doc of documents as Models.DefaultDocument[]) byId[doc.$id] = doc;
    }
  }
  return byId;
}

/** The committed schema file with the test project's id, as the CLI's `appwrite.json` in `work`. */
async function writeCliConfig(): Promise<Record<string, unknown>> {
  const committed = JSON.parse(await readFile(SCHEMA_FILE, "utf8")) as Record<string, unknown>;
  await writeFile(
    path.join(work, "appwrite.json"),
    JSON.stringify({ ...committed, projectId: backend.emulator.projectId }, null, 2),
  );
  return committed;
}

describe("model/appwrite.json round trip with the official Appwrite CLI (C60)", () => {
  it("push --all --force twice changes nothing and loses no field; pull writes the committed file back", async () => {
    const pushed = await push(backend.services, { contentDir: FIXTURE_CONTENT });
    // Four published items and the fixture's draft, which push writes as a draft (issue #16).
    expect(pushed.created).toBe(5);
    const before = await allDocuments();
    expect(Object.keys(before)).toHaveLength(5);
    const committed = await writeCliConfig();
    const { endpoint, projectId, apiKey } = backend.emulator;
    const client = await appwrite(["client", "--endpoint", endpoint, "--project-id", projectId, "--key", apiKey]);
    expect(client.code, client.output).toBe(0);

    for (const run of [1, 2]) {
      const result = await appwrite(["push", "collections", "--all", "--force"]);
      expect(result.code, `run ${run}: ${result.output}`).toBe(0);
      expect(result.output, `run ${run}`).toMatch(/Successfully pushed \d+ collections/);
      // A changed attribute is listed in a table with its action (recreating, changing, adding, deleting).
      expect(result.output, `run ${run}`).not.toMatch(
        /applied changes|pending changes|recreating|deleting|changed from/,
      );
      expect(await allDocuments(), `run ${run}: every document keeps every field`).toEqual(before);
    }

    const pulled = await appwrite(["pull", "collections", "--all"]);
    expect(pulled.code, pulled.output).toBe(0);
    const written = JSON.parse(await readFile(path.join(work, "appwrite.json"), "utf8")) as Record<string, unknown>;
    // Key order included: the file is what the CLI would write, apart from the project id and indentation.
    expect(JSON.stringify({ ...written, projectId: committed.projectId }, null, 2)).toBe(
      JSON.stringify(committed, null, 2),
    );
  }, 60_000);
});
