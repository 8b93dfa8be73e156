import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "../../server/build.ts";

/** Vitest global setup: the site tests run the production build, remade only when sources changed. */
export default async function setup(): Promise<void> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  await ensureBuild(root, { quiet: true });
}
