#!/usr/bin/env node
// `studio`: runs the bundled CLI (build/cli/studio.js). The bundle is made by `npm install` (the `prepare`
// script), `npm run build` and `npm run studio`; a checkout without one (installed with --ignore-scripts)
// builds it here once, in well under a second.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(root, "build", "cli", "studio.js");
if (!existsSync(bundle)) {
  const { buildCli } = await import("./build.mjs");
  await buildCli(root);
}
await import(pathToFileURL(bundle).href);
