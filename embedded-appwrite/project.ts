import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPrivateDir } from "./private-data.ts";

/** The emulated project's identity. */
export interface ProjectIdentity {
  projectId: string;
  apiKey: string;
}

/**
 * Resolve the project ID and API key: explicit values win; otherwise the values kept in
 * `DATA_DIR/project.json`; otherwise new ones, written there with mode 0600 (ARCHITECTURE "Configuration":
 * "created once and kept in DATA_DIR when unset"): a crypto-random key, and `newProjectId` as the project
 * ID when given (the embedded server's `EMBEDDED_PROJECT_ID`, a name and no secret), else `local-` and 12
 * random hex digits. Explicit values are not written to disk.
 */
export function resolveProject(
  dataDir: string,
  projectId?: string,
  apiKey?: string,
  newProjectId?: string,
): ProjectIdentity {
  createPrivateDir(dataDir);
  const file = join(dataDir, "project.json");
  let stored: Partial<ProjectIdentity> = {};
  if (existsSync(file)) {
    stored = JSON.parse(readFileSync(file, "utf8")) as Partial<ProjectIdentity>;
  }
  const generated: Partial<ProjectIdentity> = {};
  const resolved: ProjectIdentity = {
    projectId: projectId || stored.projectId || (generated.projectId = newProjectId || `local-${randomBytes(6).toString("hex")}`),
    apiKey: apiKey || stored.apiKey || (generated.apiKey = `standard_${randomBytes(64).toString("hex")}`),
  };
  if (generated.projectId !== undefined || generated.apiKey !== undefined) {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ ...stored, ...generated }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  }
  return resolved;
}
