import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { makeSchemaTemplate } from "../helpers/stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A DATA_DIR with `model/appwrite.json` applied, copied by each `startBackend()` (tests/helpers/stack.ts). */
    backendTemplate: string;
  }
}

/**
 * Vitest global setup: applies the schema once for the whole run into a template data folder (about 2 s on a
 * busy machine); every test backend starts from a copy of it instead of applying the schema again over HTTP.
 * Removed after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const parent = await mkdtemp(path.join(tmpdir(), "studio-template-"));
  const dir = path.join(parent, "data");
  await makeSchemaTemplate(dir);
  project.provide("backendTemplate", dir);
  return () => rm(parent, { recursive: true, force: true });
}
