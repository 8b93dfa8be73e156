import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "../../server/build.ts";
// @ts-expect-error -- plain ESM build script without types
import { buildCli } from "../../cli/build.mjs";

/**
 * Vitest global setup: the site tests run the production build, remade only when sources changed; the tests
 * that spawn `studio` run its bundle, rebuilt here from the sources under test (esbuild, well under a second).
 */
export default async function setup(): Promise<void> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  await Promise.all([ensureBuild(root, { quiet: true }), (buildCli as (root: string) => Promise<void>)(root)]);
}
