import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureLauncherBundle } from "../../launcher/bundle.ts";
import { ensureBuild, treeHash } from "../../server/build.ts";
// @ts-expect-error -- plain ESM build script without types
import { buildCli } from "../../cli/build.mjs";
import { ROOT, makeSchemaTemplate, makeSiteTemplate } from "../helpers/stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A DATA_DIR with `model/appwrite.json` applied, copied by each `startBackend()` (tests/helpers/stack.ts). */
    backendTemplate: string;
    /** The same with `content/` pushed, copied by each `startSiteStack()` (tests/helpers/site.ts). */
    siteTemplate: string;
  }
}

/** What the test data folders are made from: the schema, the code that applies it and pushes, `content/`. */
const TEMPLATE_SOURCES = {
  dirs: ["model", "lib", "embedded-appwrite", "content"],
  files: ["tests/helpers/stack.ts", "package-lock.json"],
};
/** A kept pair of data folders not used for this long is removed (no run lasts a day). */
const TEMPLATE_KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * The run's two data folders (`backend`: the schema applied; `site`: also `content/` pushed), kept in
 * `node_modules/.cache/test-templates/<hash of their sources>/` so the next run from the same sources (CI's
 * browser tests after `npm test`, a developer's next run) copies them instead of making them again (~3 s of
 * both cores). Made in a temporary folder and renamed into place, so a run never sees half a pair; pairs
 * not used for a day are removed.
 */
async function templates(root: string): Promise<{ backend: string; site: string }> {
  const cache = path.join(root, "node_modules", ".cache", "test-templates");
  const key = await treeHash(root, TEMPLATE_SOURCES.dirs, TEMPLATE_SOURCES.files, "test templates v1");
  const kept = path.join(cache, key);
  const pair = (dir: string) => ({ backend: path.join(dir, "backend"), site: path.join(dir, "site") });
  if (existsSync(path.join(kept, "site"))) {
    await utimes(kept, new Date(), new Date()); // in use: not removed as old by another run
    return pair(kept);
  }
  await mkdir(cache, { recursive: true });
  for (const entry of await readdir(cache)) {
    const old = path.join(cache, entry);
    if (Date.now() - (await stat(old)).mtimeMs > TEMPLATE_KEEP_MS) await rm(old, { recursive: true, force: true });
  }
  const made = await mkdtemp(path.join(cache, "making-"));
  await Promise.all([makeSchemaTemplate(pair(made).backend), makeSiteTemplate(pair(made).site)]);
  try {
    await rename(made, kept);
  } catch {
    await rm(made, { recursive: true, force: true }); // another run put the same pair in place first
  }
  return pair(kept);
}

/**
 * What a test run needs made, its steps side by side: the site tests run the production build, remade only when
 * sources changed, and the launcher's bundle with it; the tests that spawn `studio` run its bundle, rebuilt here
 * from the sources under test (esbuild, well under a second); and the data folders every test backend starts as
 * a copy of (the schema applied; also `content/` pushed, for the site's stacks) are made once for the sources
 * instead of once a backend over HTTP (issue #27 item 4). Each is kept for the next run from the same sources.
 * @returns the two data folders (`templates`).
 * @throws {Error} when the site build fails, or pushing `content/` into the site's data folder does.
 */
export async function prepareTestRun(root: string): Promise<{ backend: string; site: string }> {
  const [, , made] = await Promise.all([
    // The site, then the launcher's bundle (`npm start`'s site processes, `npm run start:prod`), which the
    // site build's emptying of build/ would remove.
    ensureBuild(root, { quiet: true }).then(() => ensureLauncherBundle(root)),
    (buildCli as (root: string) => Promise<void>)(root),
    templates(root),
  ]);
  return made;
}

/** Vitest global setup: `prepareTestRun`, and the data folders provided to the tests. */
export default async function setup(project: TestProject): Promise<void> {
  const made = await prepareTestRun(ROOT);
  project.provide("backendTemplate", made.backend);
  project.provide("siteTemplate", made.site);
}
