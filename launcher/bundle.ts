/**
 * The bundle `npm start` forks its site processes from when `WEB_CONCURRENCY` > 1: `build/launcher/site-process.js`
 * (launcher/build.mjs, the one `npm run start:prod` runs), remade when a source it is made from changed. Each
 * process then runs on plain `node`: through the TypeScript loader `npm start` itself runs under, a site process
 * took ~6 CPU-seconds and ~400 MB to start, against ~4 s and ~250 MB from the bundle (`ps`, this machine).
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { treeHash } from "../server/build.ts";
// @ts-expect-error -- plain ESM build script without types
import { buildLauncher } from "./build.mjs";

/** What the bundle is compiled from (every project source it imports, and the build settings). */
const BUNDLE_SOURCES = {
  dirs: ["launcher", "server", "lib", "model", "embedded-appwrite", "web"],
  files: ["package.json", "tsconfig.json"],
};

/**
 * The path of `build/launcher/site-process.js` under `root`, bundled first unless the stamp beside it
 * (`build/launcher/.source-hash`) says it was made from the current sources. Call it after the site build
 * (`ensureBuild`), which empties `build/`.
 * @throws {Error} esbuild's, when the bundle cannot be made.
 */
export async function ensureLauncherBundle(root: string): Promise<string> {
  const entry = path.join(root, "build", "launcher", "site-process.js");
  const stamp = path.join(root, "build", "launcher", ".source-hash");
  const hash = await treeHash(root, BUNDLE_SOURCES.dirs, BUNDLE_SOURCES.files, "launcher bundle v1");
  if (existsSync(entry) && existsSync(stamp) && (await readFile(stamp, "utf8")) === hash) return entry;
  await (buildLauncher as (root: string) => Promise<void>)(root);
  await writeFile(stamp, hash);
  return entry;
}
