/**
 * `studio` as a process (issue 14 item 5, issue #27 item 4): the one file that spawns the bin. Exit statuses
 * follow the README (2 usage, 4 over 1 when both), `--help` and `--version` load neither Ink, React nor the
 * SDK, terminals get plain lines when they report no width and no colours with NO_COLOR, and preview --web
 * serves until interrupted. What each command does is tested in-process: cli.test.ts, cli-messages.test.ts.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
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

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const resultOf = (run: Run) => JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
const POST = (front: string, body = "## Why\n\nText.\n\n- a\n- b\n\n> Quote.") => `---\n${front}\n---\n\n${body}\n`;

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
    expect(await exited).toBe(0); // valid (a person's draft is not held to the AI-draft content rules, #34)
  });
});

describe("studio's output contract (issue #34)", () => {
  const lines = (run: Run) => run.stdout.trim().split("\n").filter(Boolean);

  it("with --json, a fatal error ends stdout with an NDJSON error line (exit 2), the words on stderr", async () => {
    const run = await studio(["push", "--json", "--dir", "/nonexistent/content"]);
    expect(run.code).toBe(2);
    for (const line of lines(run)) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(resultOf(run)).toMatchObject({
      type: "error",
      exit: 2,
      message: expect.stringContaining("/nonexistent/content"),
    });
    expect(run.stderr).toMatch(/does not exist/);
  });

  it("with --json, Appwrite unreachable is an error line with exit 3; a bad flag one with exit 2", async () => {
    const gone = await studio(["push", "--json"], { APPWRITE_ENDPOINT: "http://127.0.0.1:9/v1" });
    expect(gone.code).toBe(3);
    expect(resultOf(gone)).toMatchObject({ type: "error", exit: 3 });
    const bad = await studio(["status", "--json", "--no-such-flag"]);
    expect(bad.code).toBe(2);
    expect(resultOf(bad)).toMatchObject({ type: "error", exit: 2, message: expect.stringContaining("--no-such-flag") });
  });

  it("outside the project folder, refuses (exit 3) without creating a database there", async () => {
    const outside = await mkdtemp(path.join(tmpdir(), "not-a-project-"));
    const run = await new Promise<Run>((resolve) => {
      const env = { ...process.env };
      for (const name of ["APPWRITE_ENDPOINT", "APPWRITE_PROJECT_ID", "APPWRITE_API_KEY", "DATA_DIR"]) delete env[name];
      const child = spawn(process.execPath, [path.join(ROOT, "cli/bin.js"), "push", "--dry-run"], {
        cwd: outside,
        env: { ...env, CI: "" },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("exit", (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/not inside the project folder/);
    expect(existsSync(path.join(outside, ".data"))).toBe(false);
  });

  it("Ctrl-C during a push says how far it got and exits 130", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "studio-ctrl-c-"));
    await mkdir(path.join(dir, "posts"));
    for (let n = 0; n < 150; n++) {
      const front = `title: Post ${n}\nexcerpt: Number ${n}.\nauthorName: A\npublishedDate: 2026-01-01`;
      await writeFile(path.join(dir, `posts/post-${n}.md`), POST(front));
    }
    const child = spawn(process.execPath, [path.join(ROOT, "cli/bin.js"), "push", "--dir", dir, "--concurrency", "1"], {
      cwd: ROOT,
      env: { ...appwriteEnv(backend.emulator), CI: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await expect.poll(() => stdout, { timeout: 60_000, interval: 50 }).toMatch(/\[\d+\/150\] created/);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/studio push interrupted: \d+ of 150 item\(s\) handled \(\d+ created\)/);
    expect(stderr).toMatch(/run `studio push` again to finish/);
  });

  it("the bundle runs React in production mode (no development warnings in a terminal)", async () => {
    expect((await studio(["--version"])).code).toBe(0); // builds the bundle when missing
    const { readFile } = await import("node:fs/promises");
    const first = (await readFile(path.join(ROOT, "build/cli/studio.js"), "utf8")).split("\n")[0];
    expect(first).toBe('process.env.NODE_ENV ??= "production";');
  });
});
