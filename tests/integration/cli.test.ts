import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ID, Permission, Query, Role } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../embedded-appwrite/server.ts";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { DATABASE_ID, IMAGES_BUCKET_ID } from "../../model/content.ts";
import { copyFixtureContent, startBackend, type Backend } from "../helpers/stack.ts";
import { studio as studioIn, type Target } from "../helpers/studio.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let backend: Backend;
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

/** Runs `studio <args>` in this process against `target` (default: the test backend). */
const studio = (args: string[], target: Target = backend.emulator) => studioIn(args, target);

/** An edit made in the admin: a write to a post straight into Appwrite, not through `studio`. */
async function editPostInAppwrite(backend: Backend, slug: string, data: Record<string, unknown>): Promise<void> {
  const page = await backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    queries: [Query.equal("slug", slug)],
  });
  await backend.services.databases.updateDocument({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
    documentId: page.documents[0]!.$id,
    data,
  });
}

/** Slugs of the posts in the test backend, sorted. */
async function postSlugs(): Promise<string[]> {
  const page = await backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: CONTENT_MODEL.post.collectionId,
  });
  return page.documents.map((d) => String(d.slug)).sort();
}

async function withEmptyEmulator(use: (emulator: RunningEmulator) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "studio-empty-"));
  const emulator = await startEmulator({ dataDir, port: 0 });
  try {
    await use(emulator);
  } finally {
    await emulator.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * `studio`'s commands as a user runs them, in this process (tests/helpers/studio.ts): what each command does
 * to Appwrite and the files, its NDJSON and its exit code. The process contract (the bin's exit status,
 * `--help`, terminals, signals) is tests/integration/cli-contract.test.ts.
 */
describe("studio CLI", () => {
  it("push --json prints NDJSON progress and a final result; a second push changes nothing", async () => {
    const dir = await copyFixtureContent();
    const first = await studio(["push", "--dir", dir, "--json"]);
    expect(first.code).toBe(0);
    // Four published items and the fixture's draft, which push writes as a draft (issue #16).
    expect(first.lines().filter((l) => l.type === "item")).toHaveLength(5);
    expect(first.result()).toEqual({
      type: "result",
      created: 5,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      skipped: 0,
      conflicts: 0,
      failed: 0,
      dryRun: false,
      read: { byStat: 0, byHash: 0, parsed: 5 },
    });

    const second = await studio(["push", "--dir", dir, "--json"]);
    expect(second.result()).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    // Known unchanged from the lock without parsing them (by their stat, or by their bytes' hash when they were
    // copied too recently for their stat to be trusted: tests/integration/push-reads.test.ts), except the one
    // whose HTML the sanitizer trims (beta-works.html), read every time so its warning is printed again.
    const { read } = second.result() as { read: { byStat: number; byHash: number; parsed: number } };
    expect(read.byStat + read.byHash).toBe(4);
    expect(read.parsed).toBe(1);
    expect(
      second
        .lines()
        .filter((l) => l.type === "warning")
        .map((l) => l.file),
    ).toContain("ventures/beta-works.html");
  });

  it("without a terminal prints plain lines, and exits 1 naming an invalid file and field", async () => {
    const dir = await copyFixtureContent();
    await writeFile(
      path.join(dir, "ventures/no-url.md"),
      "---\nname: No URL\nshortDescription: x\nwebsiteURL: not a url\n---\nBody\n",
    );
    await writeFile(
      path.join(dir, "ventures/gamma-new.md"),
      "---\nname: Gamma\nshortDescription: x\nwebsiteURL: https://gamma.example\n---\nBody\n",
    );

    const { code, stdout, stderr } = await studio(["push", "--dir", dir, "--dry-run"]);

    expect(code).toBe(1);
    expect(stdout).toMatch(/would create venture gamma-new/);
    expect(stdout).toMatch(/Dry run, nothing written/);
    expect(stdout).not.toContain("\u001b["); // no colours or spinners in a pipe
    expect(stderr).toMatch(/ventures\/no-url\.md: websiteURL: /);
  });

  it("exits 2 on an unknown option, and on --prune without --yes when no one can be asked", async () => {
    const unknown = await studio(["push", "--nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option/);

    const dir = await copyFixtureContent();
    await studio(["push", "--dir", dir, "--json"]);
    await rm(path.join(dir, "posts/hello-world.md"));
    const prune = await studio(["push", "--dir", dir, "--prune"]);
    expect(prune.code).toBe(2);
    expect(prune.stderr).toMatch(/would delete 1 item\(s\) from Appwrite; pass --yes/);

    const exportDir = await mkdtemp(path.join(tmpdir(), "studio-exports-"));
    const confirmed = await studio(["push", "--dir", dir, "--prune", "--yes", "--json", "--export-dir", exportDir]);
    expect(confirmed.code).toBe(0);
    expect(confirmed.result()).toMatchObject({ deleted: 1 });
  });

  it("push --prune exports what it deletes before deleting, says where, and restore brings it back (C48)", async () => {
    const dir = await copyFixtureContent();
    const exportDir = path.join(await mkdtemp(path.join(tmpdir(), "studio-exports-")), "nested");
    await studio(["push", "--dir", dir, "--json"]);
    await rm(path.join(dir, "posts/hello-world.md"));
    await rm(path.join(dir, "ventures/beta-works.html"));

    const pruned = await studio(["push", "--dir", dir, "--prune", "--yes", "--export-dir", exportDir]);

    expect(pruned.code).toBe(0);
    const [name] = await readdir(exportDir);
    const where = path.join(exportDir, name!);
    expect(pruned.stdout).toContain(`Exported 2 item(s) and 1 image(s) before deleting them: ${where}`);
    expect(pruned.stdout).toContain(`studio restore ${where}`);
    // The export line comes before any deletion is reported ("[4/5] deleted venture beta-works" since #34).
    expect(pruned.stdout.indexOf("Exported")).toBeLessThan(pruned.stdout.search(/\bdeleted? (venture|post) /));
    expect(await postSlugs()).toEqual(["second-post", "work-in-progress"]);

    const restore = await studio(["restore", where, "--json"]);

    expect(restore.code).toBe(0);
    expect(restore.result()).toEqual({
      type: "result",
      restored: { documents: 2, files: 1 },
      existing: 0,
      conflicts: 0,
      failed: 0,
    });
    expect(await postSlugs()).toEqual(["hello-world", "second-post", "work-in-progress"]);
    expect((await studio(["restore", where])).stdout).toMatch(/Restored 0 item\(s\) and 0 file\(s\); 3 already there/);
  });

  // A prune whose export cannot be written (exit 3, nothing deleted) is destructive.test.ts's (C59), at the
  // command level, and push.test.ts's at the library's.
  it("restore of a file that is not an export exits 2 saying what to pass", async () => {
    const dir = await copyFixtureContent();
    const bad = await studio(["restore", path.join(dir, "ventures/alpha-agency.md")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not JSON; pass a file written by studio push --prune or studio sweep/);
  });

  it("sweep lists, then with --yes exports and deletes only old unreferenced images; a second sweep finds none (C44)", async () => {
    const dir = await copyFixtureContent();
    await studio(["push", "--dir", dir, "--json"]);
    const referenced = (await backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).files.map(
      (f) => f.$id,
    );
    expect(referenced).toHaveLength(2);
    // An upload whose document was never written (the process died in between).
    const orphan = await backend.services.storage.createFile({
      bucketId: IMAGES_BUCKET_ID,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(await readFile(path.join(dir, "images/hello-cover.png")), "lost.png"),
      permissions: [Permission.read(Role.any())],
    });

    // Within the default grace period of an hour, a fresh upload is never an orphan.
    const young = await studio(["sweep", "--json"]);
    expect(young.result()).toMatchObject({ scanned: 3, referenced: 2, young: 1, orphans: 0, dryRun: true });

    const dry = await studio(["sweep", "--older-than", "0"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^orphan ${orphan.$id} \\(lost\\.png`, "m"));
    expect(dry.stdout).toMatch(/1 orphan\(s\)\. Dry run, nothing deleted; pass --yes/);

    const exportDir = await mkdtemp(path.join(tmpdir(), "studio-exports-"));
    const swept = await studio(["sweep", "--yes", "--older-than", "0", "--json", "--export-dir", exportDir]);
    expect(swept.code).toBe(0);
    expect(swept.lines().filter((l) => l.type === "orphan")).toEqual([
      expect.objectContaining({ id: orphan.$id, deleted: true }),
    ]);
    expect(swept.result()).toMatchObject({ orphans: 1, deleted: 1, failed: 0, dryRun: false });
    const remaining = (await backend.services.storage.listFiles({ bucketId: IMAGES_BUCKET_ID })).files.map(
      (f) => f.$id,
    );
    expect(remaining.sort()).toEqual([...referenced].sort());
    expect(await readdir(exportDir)).toEqual([expect.stringMatching(/^sweep-.*\.json$/)]);

    const again = await studio(["sweep", "--yes", "--older-than", "0", "--json", "--export-dir", exportDir]);
    expect(again.result()).toMatchObject({ scanned: 2, orphans: 0, deleted: 0 });
    expect(await readdir(exportDir)).toHaveLength(1); // nothing to delete, nothing exported

    expect((await studio(["sweep", "--older-than", "soon"])).code).toBe(2);
  });

  it("exits 3 when Appwrite has no schema (saying to run setup) or does not answer", async () => {
    await withEmptyEmulator(async (empty) => {
      const dir = await copyFixtureContent();
      const failed = await studio(["push", "--dir", dir, "--json"], empty);
      expect(failed.code).toBe(3);
      expect(failed.stderr).toMatch(/has no database main_db: run `studio setup` first/);

      const seeded = await studio(["seed", "--dir", dir, "--json"], empty);
      expect(seeded.code).toBe(0);
      expect(seeded.lines()[0]).toMatchObject({ type: "setup" });
      expect(seeded.result()).toMatchObject({ created: 5, failed: 0 });
    });

    const down = await studio(["push", "--json"], { endpoint: "http://127.0.0.1:9/v1", projectId: "p", apiKey: "k" });
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/did not answer/);
  });

  it("exits 4 on a conflict with an edit made in Appwrite, and --force resolves it", async () => {
    const dir = await copyFixtureContent();
    await studio(["push", "--dir", dir, "--json"]);
    await editPostInAppwrite(backend, "hello-world", { title: "Edited in the admin" });
    const file = path.join(dir, "posts/hello-world.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("title: Hello World", "title: Edited in the file"));

    const conflict = await studio(["push", "--dir", dir]);
    expect(conflict.code).toBe(4);
    expect(conflict.stdout).toMatch(/conflict post hello-world .*studio pull/);

    const forced = await studio(["push", "--dir", dir, "--force", "--json"]);
    expect(forced.code).toBe(0);
    expect(forced.result()).toMatchObject({ updated: 1, conflicts: 0 });
  });

  it("exits 5 when Appwrite refuses a write, applying the rest", async () => {
    await withEmptyEmulator(async (empty) => {
      const dir = await copyFixtureContent();
      // The schema, with an images bucket too small for any image: every upload is refused.
      const tiny = { ...schema, buckets: schema.buckets.map((b) => ({ ...b, maximumFileSize: 50 })) };
      await applySchema(createAdminServices(empty), tiny as AppwriteSchema);

      const run = await studio(["push", "--dir", dir, "--json"], empty);

      expect(run.code).toBe(5);
      expect(run.result()).toMatchObject({ created: 2, failed: 3 }); // the draft has no image
      const failed = run.lines().filter((l) => l.status === "failed");
      expect(failed[0]?.error).toMatch(/storage_invalid_file_size/);
    });
  });

  it("pull --json writes edits made in Appwrite into files", async () => {
    const dir = await copyFixtureContent();
    await studio(["push", "--dir", dir, "--json"]);
    await editPostInAppwrite(backend, "second-post", { excerpt: "From the admin." });

    const run = await studio(["pull", "--dir", dir, "--json"]);

    expect(run.code).toBe(0);
    expect(run.result()).toMatchObject({ written: 1, conflicts: 0, failed: 0 });
    expect(await readFile(path.join(dir, "posts/second-post.md"), "utf8")).toContain("excerpt: From the admin.");
  });

  it("format --check exits 1 when a file would change; format fixes it; --check then passes", async () => {
    const dir = await copyFixtureContent();
    const file = path.join(dir, "ventures/beta-works.html");
    const check = await studio(["format", "--dir", dir, "--check"]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/would format ventures\/beta-works\.html/);
    expect(await readFile(file, "utf8")).toContain("<ul><li>Fast research</li></ul>");

    expect((await studio(["format", "--dir", dir])).code).toBe(0);
    expect(await readFile(file, "utf8")).toContain("<ul>\n  <li>Fast research</li>\n</ul>");
    expect((await studio(["format", "--dir", dir, "--check"])).code).toBe(0);
  });

  it("preview prints metadata, validation, and the body as text", async () => {
    const dir = await copyFixtureContent();
    // A person's post is not held to the AI-draft content rules (issue #34): valid is exit 0.
    const { code, stdout } = await studio(["preview", path.join(dir, "posts/second-post.md")]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^post · /);
    expect(stdout).toMatch(/title\s+Second Post/);
    expect(stdout).toMatch(/✓ valid/);
    expect(stdout).toMatch(/\nSECOND\n\nText\./);

    const good = await studio(["preview", path.join(dir, "ventures/alpha-agency.md"), "--json"]);
    expect(good.code).toBe(0);
    expect(good.result()).toMatchObject({ kind: "venture", issues: [], rules: [] });

    const wrong = await studio(["preview", path.join(dir, "images/alpha-logo.png")]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/is not a content file/);
  });
});
