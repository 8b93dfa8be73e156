/**
 * The bundle `npm start` forks its site processes from when `WEB_CONCURRENCY` > 1: `build/launcher/site-process.js`
 * (launcher/build.mjs, the one `npm run start:prod` runs), remade when a source it is made from changed. Each
 * process then runs on plain `node`: through the TypeScript loader `npm start` itself runs under, a site process
 * took ~6 CPU-seconds and ~400 MB to start, against ~4 s and ~250 MB from the bundle (`ps`, this machine).
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { builtSourceHash, treeHash } from "../server/build.ts";
// @ts-expect-error -- plain ESM build script without types
import { buildLauncher } from "./build.mjs";

/**
 * The bundle's sources besides the site build's (`web`, `server`, `lib`, `model` and the build settings, whose
 * hash the site build's stamp holds): the launcher and the embedded server it can start.
 */
const OWN_SOURCE_DIRS = ["launcher", "embedded-appwrite"];

/**
 * The path of `build/launcher/site-process.js` under `root`, bundled first unless the stamp beside it
 * (`build/launcher/.source-hash`) says it was made from the current sources: the site build's hash and the
 * launcher's own sources. Call it after the site build (`ensureBuild`), which empties `build/` and stamps it.
 * @throws {Error} when the site build has no stamp (`ensureBuild` did not run); esbuild's, when the bundle
 *   cannot be made.
 */
export async function ensureLauncherBundle(root: string): Promise<string> {
  const entry = path.join(root, "build", "launcher", "site-process.js");
  const stamp = path.join(root, "build", "launcher", ".source-hash");
  const site = await builtSourceHash(root);
  if (site === null) throw new Error("The site build has no stamp: build the site first (ensureBuild).");
  const hash = await treeHash(root, OWN_SOURCE_DIRS, [], `launcher bundle v2\0${site}`);
  if (existsSync(entry) && existsSync(stamp) && (await readFile(stamp, "utf8")) === hash) return entry;
  await (buildLauncher as (root: string) => Promise<void>)(root);
  await writeFile(stamp, hash);
  return entry;
}
