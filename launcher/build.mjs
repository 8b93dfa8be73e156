// Bundles the production start (issue #32 item 1) with esbuild into build/launcher/: `start.js` (from
// launcher/production.ts) and `site-process.js` (each process of WEB_CONCURRENCY), ESM for Node 20, every
// project source compiled in and dependencies left to node_modules, so `node build/launcher/start.js` needs
// no TypeScript loader. Run by `npm run build`, after `react-router build` (the site) and cli/build.mjs.
import { rm } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

/** Builds `build/launcher/start.js` and `build/launcher/site-process.js` under `root`. */
export async function buildLauncher(root) {
  const outdir = path.join(root, "build", "launcher");
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { start: "launcher/production.ts", "site-process": "launcher/site-process.ts" },
    outdir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    jsx: "automatic",
    logLevel: "warning",
    // The bundle's ESM has no require; a few dependencies' CommonJS helpers may ask for it.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildLauncher(path.resolve(path.dirname(new URL(import.meta.url).pathname), ".."));
}
