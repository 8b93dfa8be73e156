import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../server/build.ts";
// @ts-expect-error -- plain ESM build script without types
import { buildCli } from "../../cli/build.mjs";
import { makeSchemaTemplate, makeSiteTemplate } from "../helpers/stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A DATA_DIR with `model/appwrite.json` applied, copied by each `startBackend()` (tests/helpers/stack.ts). */
    backendTemplate: string;
    /** The same with `content/` pushed, copied by each `startSiteStack()` (tests/helpers/site.ts). */
    siteTemplate: string;
  }
}

/**
 * Vitest global setup, its steps side by side: the site tests run the production build, remade only when
 * sources changed; the tests that spawn `studio` run its bundle, rebuilt here from the sources under test
 * (esbuild, well under a second); and the data folders every test backend starts as a copy of (the schema
 * applied; also `content/` pushed, for the site's stacks) are made once for the run instead of once a backend
 * over HTTP (issue #27 item 4). The templates are removed after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const parent = await mkdtemp(path.join(tmpdir(), "studio-templates-"));
  const backend = path.join(parent, "backend");
  const site = path.join(parent, "site");
  await Promise.all([
    ensureBuild(root, { quiet: true }),
    (buildCli as (root: string) => Promise<void>)(root),
    makeSchemaTemplate(backend),
    makeSiteTemplate(site),
  ]);
  project.provide("backendTemplate", backend);
  project.provide("siteTemplate", site);
  return () => rm(parent, { recursive: true, force: true });
}
