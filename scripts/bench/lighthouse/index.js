// The benchmarks' door to Lighthouse (scripts/bench/lib/lighthouse.ts), resolved from this package's own
// node_modules (`npm install --prefix scripts/bench/lighthouse`).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export { default as lighthouse } from "lighthouse";
export { launch } from "chrome-launcher";
export const version = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve("lighthouse/package.json"), "utf8"),
).version;
