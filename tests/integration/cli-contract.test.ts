/**
 * `studio` as a process (issue 14 item 5, issue #27 item 4): the one file that spawns the bin. Exit statuses
 * follow the README (2 usage, 4 over 1 when both), `--help` and `--version` load neither Ink, React nor the
 * SDK, terminals get plain lines when they report no width and no colours with NO_COLOR, and preview --web
 * serves until interrupted. What each command does is tested in-process: cli.test.ts, cli-messages.test.ts.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { appwriteEnv, copyFixtureContent, ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { spawnStudio } from "../helpers/studio.ts";

let backend: Backend;
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

/** Runs the `studio` bin against the test backend, piped (or in a terminal of `tty.columns` columns). */
const studio = (args: string[], env: NodeJS.ProcessEnv = {}, tty?: { columns: number }) =>
  spawnStudio(args, backend.emulator, env, tty);

/** Bare module names a bundle file imports statically, following its static imports of other chunks. */
async function staticImports(file: string, seen = new Set<string>()): Promise<Set<string>> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const code = await readFile(file, "utf8");
  for (const match of code.matchAll(/^import\s[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"/gm)) {
    const specifier = match[1] ?? match[2]!;
    if (specifier.startsWith(".")) {
      for (const name of await staticImports(path.resolve(path.dirname(file), specifier), seen)) names.add(name);
    } else names.add(specifier);
  }
  return names;
}

describe("studio, as tried by a new user", () => {
  it("--help and --version load neither Ink, React nor the SDK", async () => {
    expect((await studio(["--version"])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/); // builds the bundle if stale
    const loaded = [...(await staticImports(path.join(ROOT, "build/cli/studio.js")))];
    expect(loaded).toContain("commander");
    expect(loaded.filter((name) => /^(ink|react|react\/.*|node-appwrite)$/.test(name))).toEqual([]);
  });

  it("prints help listing its commands and the exit codes", async () => {
    const { code, stdout } = await studio(["--help"]);
    expect(code).toBe(0);
    for (const command of ["setup", "push", "pull", "seed", "format", "preview", "restore", "sweep"])
      expect(stdout).toContain(command);
    expect(stdout).toMatch(/4 conflict/);
  });

  it("preview of a file that does not exist exits 2 naming it (not a bug)", async () => {
    const run = await studio(["preview", "content/posts/nope.md"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/content\/posts\/nope\.md does not exist/);
    expect(run.stderr).not.toMatch(/bug| {4}at /);
  });

  it("generate with an unknown kind says what is wrong and shows the usage (exit 2)", async () => {
    const run = await studio(["generate", "foo", "--topic", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/foo/);
    expect(run.stderr).toMatch(/venture, post/);
    expect(run.stderr).toMatch(/Usage: studio generate/);
  });

  it("respects NO_COLOR in a terminal", async () => {
    const dir = await copyFixtureContent();
    const run = await studio(["preview", path.join(dir, "posts/second-post.md")], { NO_COLOR: "1" }, { columns: 100 });
    expect(run.stdout).toMatch(/Second Post/);
    const colourOrStyle = new RegExp(`${String.fromCharCode(27)}\\[(3\\d|9\\d|1|2)m`); // SGR colours, bold, dim
    expect(run.stdout).not.toMatch(colourOrStyle);
  });

  it("on a terminal that reports 0 columns, prints plain lines", async () => {
    const dir = await copyFixtureContent();
    const run = await studio(["push", "--dir", dir, "--dry-run"], {}, { columns: 0 });
    expect(run.stdout).toMatch(/would create venture alpha-agency/);
    expect(run.stdout.split("\n").length).toBeLessThan(40);
  });
  it("preview --web serves the draft in both locales without publishing it, until interrupted", async () => {
    const dir = await copyFixtureContent();
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "cli/bin.js"), "preview", path.join(dir, "posts/work-in-progress.md"), "--web"],
      { cwd: ROOT, env: appwriteEnv(backend.emulator) },
    );
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await expect.poll(() => stdout, { timeout: 60_000, interval: 200 }).toMatch(/Press Ctrl-C/);

    const english = /English: (\S+)/.exec(stdout)![1]!;
    const arabic = /Arabic: {2}(\S+)/.exec(stdout)![1]!;
    const en = await fetch(english);
    expect(en.status).toBe(200);
    expect(await en.text()).toContain("Not Yet");
    expect(await (await fetch(arabic)).text()).toContain('dir="rtl"');
    // Nothing reached the configured Appwrite.
    const published = await backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
    });
    expect(published.total).toBe(0);

    child.kill("SIGINT");
    expect(await exited).toBe(1); // the draft breaks the content rules (no list, no blockquote)
  });
});
