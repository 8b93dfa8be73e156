// Bundles the studio CLI with esbuild into build/cli/ (ESM, code-split: each command and the Ink views are
// separate chunks loaded on use, so `--help` loads only commander). Dependencies stay external.
import { rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

/** Builds `build/cli/studio.js` from `cli/studio.ts` under `root`. */
export async function buildCli(root) {
  const outdir = path.join(root, "build", "cli");
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ["cli/studio.ts"],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    jsx: "automatic",
    // React (and Ink) pick their build from NODE_ENV when first loaded (lazily, after this line); unset, a
    // terminal push printed React's development warnings (issue #34). Dependencies stay external, so the
    // bundle sets it at run time, first thing; a caller's own NODE_ENV is kept.
    banner: { js: 'process.env.NODE_ENV ??= "production";' },
    logLevel: "warning",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildCli(path.resolve(path.dirname(new URL(import.meta.url).pathname), ".."));
}
