import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPrivateDir } from "./private-data.ts";

/** An API key limited to some scopes (Appwrite console: Overview → Integrations → API keys → scopes). */
export interface ScopedKey {
  name: string;
  secret: string;
  scopes: string[];
}

/** The emulated project's identity. */
export interface ProjectIdentity {
  projectId: string;
  /** The project's key with every scope (what `studio` and the site use). */
  apiKey: string;
  /** Further keys limited to their scopes, kept in `project.json` under `keys` (`createScopedKey`). */
  scopedKeys: ScopedKey[];
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
  let stored: Partial<ProjectIdentity> & { keys?: ScopedKey[] } = {};
  if (existsSync(file)) {
    stored = JSON.parse(readFileSync(file, "utf8")) as Partial<ProjectIdentity>;
  }
  const generated: Partial<ProjectIdentity> = {};
  const resolved: ProjectIdentity = {
    projectId:
      projectId ||
      stored.projectId ||
      (generated.projectId = newProjectId || `local-${randomBytes(6).toString("hex")}`),
    apiKey: apiKey || stored.apiKey || (generated.apiKey = `standard_${randomBytes(64).toString("hex")}`),
    scopedKeys: Array.isArray(stored.keys) ? stored.keys : [],
  };
  if (generated.projectId !== undefined || generated.apiKey !== undefined) {
    writePrivateJson(file, { ...stored, ...generated });
  }
  return resolved;
}

/**
 * Adds an API key limited to `scopes` (the embedded server's route scopes, Appwrite's names such as
 * `rows.write`, `users.write`) to `DATA_DIR/project.json` (mode 0600), as the Appwrite console does under
 * Integrations → API keys, and returns its secret. A server reads its keys when it starts: add keys before
 * starting it. A request with this key to a route needing another scope answers 401
 * `general_unauthorized_scope` naming the missing scopes (AW `shared/api.php`).
 * @throws {Error} when `dataDir` holds no project yet (start the server once first, or pass a project id).
 */
export function createScopedKey(dataDir: string, name: string, scopes: readonly string[]): string {
  const file = join(dataDir, "project.json");
  if (!existsSync(file)) throw new Error(`${dataDir} holds no project yet: start the embedded server there once.`);
  const stored = JSON.parse(readFileSync(file, "utf8")) as { keys?: ScopedKey[] };
  const secret = `standard_${randomBytes(64).toString("hex")}`;
  writePrivateJson(file, { ...stored, keys: [...(stored.keys ?? []), { name, secret, scopes: [...scopes] }] });
  return secret;
}

/** Writes `value` as JSON to `file` atomically (temp file + rename), readable by its owner only. */
function writePrivateJson(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}
