import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server.ts";
import { copyFixtureContent, ROOT, startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => backend.close());

/** Runs the real `studio` entry with piped output (not a TTY), against the test backend (or `target`). */
function studio(
  args: string[],
  target: RunningEmulator = backend.emulator,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "cli/studio.ts"), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        APPWRITE_ENDPOINT: target.endpoint,
        APPWRITE_PROJECT_ID: target.projectId,
        APPWRITE_API_KEY: target.apiKey,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("studio CLI", () => {
  it("prints help listing its commands", async () => {
    const { code, stdout } = await studio(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/setup/);
    expect(stdout).toMatch(/push/);
  });

  it("push --json prints the counts, and a second push changes nothing", async () => {
    const dir = await copyFixtureContent();
    const first = await studio(["push", "--dir", dir, "--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ created: 4, updated: 0, unchanged: 0, failed: 0 });

    const second = await studio(["push", "--dir", dir, "--json"]);
    expect(JSON.parse(second.stdout)).toEqual({ created: 0, updated: 0, unchanged: 4, failed: 0 });
  });

  it("push without a terminal prints plain progress lines, and exits 1 naming an invalid file and field", async () => {
    const dir = await copyFixtureContent();
    await writeFile(
      path.join(dir, "ventures/no-url.md"),
      "---\nname: No URL\nshortDescription: x\nwebsiteURL: not a url\n---\nBody\n",
    );
    await writeFile(
      path.join(dir, "ventures/gamma-new.md"),
      "---\nname: Gamma\nshortDescription: x\nwebsiteURL: https://gamma.example\n---\nBody\n",
    );

    const { code, stdout, stderr } = await studio(["push", "--dir", dir, "--dry-run"]);

    expect(code).toBe(1);
    expect(stdout).toMatch(/would create venture gamma-new/);
    expect(stdout).toMatch(/Dry run, nothing written/);
    expect(stderr).toMatch(/ventures\/no-url\.md: websiteURL: /);
  });

  it("exits 2 on an unknown option", async () => {
    const { code, stderr } = await studio(["push", "--nope"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown option/);
  });

  it("push into an Appwrite without the schema exits 3 and says to run setup; setup then makes push work", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "studio-empty-"));
    const empty = await startEmulator({ dataDir, port: 0 });
    try {
      const dir = await copyFixtureContent();
      const failed = await studio(["push", "--dir", dir, "--json"], empty);
      expect(failed.code).toBe(3);
      expect(failed.stderr).toMatch(/has no database main_db: run `studio setup` first/);

      const setup = await studio(["setup", "--json"], empty);
      expect(setup.code).toBe(0);
      expect(JSON.parse(setup.stdout).changes).toContain("created collection ventures");

      const pushed = await studio(["push", "--dir", dir, "--json"], empty);
      expect(JSON.parse(pushed.stdout)).toMatchObject({ created: 4, failed: 0 });
    } finally {
      await empty.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
