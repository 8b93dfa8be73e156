#!/usr/bin/env node
// `studio`: runs the bundled CLI (build/cli/studio.js), rebuilding it first when any source it bundles is
// newer than the bundle (a fresh clone builds once, in well under a second).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(root, "build", "cli", "studio.js");
const SOURCES = ["cli", "lib", "schemas", "emulator", "server", "package.json"];

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

const stale =
  !existsSync(bundle) ||
  SOURCES.some((s) => existsSync(path.join(root, s)) && newestMtime(path.join(root, s)) > statSync(bundle).mtimeMs);
if (stale) {
  const { buildCli } = await import("./build.mjs");
  await buildCli(root);
}
await import(pathToFileURL(bundle).href);
