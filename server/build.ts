/**
 * "Builds when needed" (issue #2, `npm start`): the production build of the site is remade only when a
 * source it depends on changed, judged by a SHA-256 over the sources' paths and bytes.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";

const SOURCE_DIRS = ["web", "server", "lib", "model"];
const SOURCE_FILES = ["react-router.config.ts", "vite.config.ts", "package.json", "tsconfig.json"];

async function listFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * SHA-256 (hex) over the paths (relative to `root`) and bytes of every file under `dirs` and of `files` that
 * exist, in path order, after `salt`: what a product made from them (a build, a test data folder) is keyed by.
 */
export async function treeHash(root: string, dirs: string[], files: string[], salt: string): Promise<string> {
  const all = (await Promise.all(dirs.map((d) => listFiles(path.join(root, d)))))
    .flat()
    .concat(files.map((f) => path.join(root, f)).filter((f) => existsSync(f)))
    .sort();
  const hash = createHash("sha256").update(`${salt}\0`);
  for (const file of all) {
    hash
      .update(path.relative(root, file))
      .update("\0")
      .update(await readFile(file))
      .update("\0");
  }
  return hash.digest("hex");
}

/** A hash of every source the site build reads, relative to `root`. */
export function sourceHash(root: string): Promise<string> {
  // The build's own settings are part of what it is made from (bump when they change).
  return treeHash(root, SOURCE_DIRS, SOURCE_FILES, "production build v2");
}

/** Where the site build records the `sourceHash` it was made from. */
const stampPath = (root: string) => path.join(root, "build", ".source-hash");

/**
 * The `sourceHash` the current site build was made from (its stamp, written by `ensureBuild`), or null when
 * there is no stamped build: what a product made from the build and more sources (the launcher's bundle) keys
 * on, without hashing the site's sources again.
 */
export async function builtSourceHash(root: string): Promise<string | null> {
  const stamp = stampPath(root);
  return existsSync(stamp) ? readFile(stamp, "utf8") : null;
}

/**
 * Runs `react-router build` in `root` unless `build/` was made from the same sources.
 * @returns whether a build ran.
 * @throws {Error} when the build fails (its output is shown or returned in the message).
 */
export async function ensureBuild(
  root: string,
  options: {
    quiet?: boolean;
    /**
     * Write the build's output to this file instead of the terminal (`npm start` without `--verbose`, issue
     * #34); a failed build's message still holds the output.
     */
    logFile?: string;
    /** Called just before a build starts (not when the build is up to date). */
    onStart?: () => void;
  } = {},
): Promise<boolean> {
  const stamp = stampPath(root);
  const hash = await sourceHash(root);
  if (existsSync(path.join(root, "build", "server", "index.js")) && (await builtSourceHash(root)) === hash) {
    return false;
  }

  const bin = path.join(root, "node_modules", "@react-router", "dev", "bin.js");
  options.onStart?.();
  if (options.logFile) await mkdir(path.dirname(options.logFile), { recursive: true });
  const log = options.logFile ? createWriteStream(options.logFile) : null;
  await new Promise<void>((resolve, reject) => {
    // Always a production build: a caller's NODE_ENV (vitest sets "test") would otherwise give React's
    // development build, and the build cache would then serve it to `npm start`.
    const child = spawn(process.execPath, [bin, "build"], {
      cwd: root,
      stdio: options.quiet || log ? "pipe" : "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      log?.write(chunk);
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`The site build failed (exit ${code}).${output ? `\n${output}` : ""}`)),
    );
  });
  await new Promise<void>((resolve) => (log ? log.end(resolve) : resolve()));
  await writeFile(stamp, hash);
  return true;
}
