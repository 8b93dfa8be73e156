/**
 * Issue #32 item 1: `npm run start:prod` runs `build/launcher/start.js` (bundled by launcher/build.mjs) on
 * plain `node`, no TypeScript loader: it lists every bad or missing variable at once (exit 3), refuses the
 * embedded default in production unless asked for, and serves `/healthz`, `/readyz` and the pages.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED_SESSION_SECONDS } from "../../embedded-appwrite/embedded.ts";
import { startEmulator, type RunningEmulator } from "../../embedded-appwrite/server.ts";
import { createAdminServices } from "../../lib/appwrite/client.ts";
import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { push } from "../../lib/publish/push.ts";
import schema from "../../model/appwrite.json" with { type: "json" };
import { ROOT } from "../helpers/stack.ts";

const START = path.join(ROOT, "build", "launcher", "start.js");

/** A clean environment: nothing of this process's (no NODE_OPTIONS, no loader, no APPWRITE_*). */
const baseEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  ...extra,
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** Runs `node build/launcher/start.js` (no execArgv: no loader) with `env`. */
function run(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [START], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exit };
}

/** Waits for the "Site ready: <url>" line and returns the url. */
async function siteUrl(started: Started): Promise<string> {
  for (let i = 0; i < 600; i += 1) {
    const match = /Site ready: (http:\/\/[^\s]+)/.exec(started.output());
    if (match) return match[1]!;
    if (started.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`start:prod did not become ready:\n${started.output()}`);
}

async function stop(started: Started): Promise<number | null> {
  if (started.child.exitCode === null) started.child.kill("SIGTERM");
  return started.exit;
}

let dataDir: string;
beforeAll(async () => {
  // Made by the run's global setup (tests/setup/build-site.ts): rebuilt here, it would be removed under the
  // site processes another file's `npm start` runs from it.
  expect(existsSync(START)).toBe(true);
  dataDir = await mkdtemp(path.join(tmpdir(), "studio-prod-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("npm run start:prod: the configuration at boot", () => {
  it("is a bundle that imports no TypeScript file (it runs on plain node)", async () => {
    const bundle = await readFile(START, "utf8");
    expect(bundle).not.toMatch(/from\s+["'][^"']+\.tsx?["']/);
    expect(bundle).not.toMatch(/import\(["'][^"']+\.tsx?["']\)/);
    expect(bundle).not.toContain("tsx/esm");
  });

  it("lists every bad or missing variable at once, with what to set, and exits 3", async () => {
    const started = run(
      baseEnv({ NODE_ENV: "production", PORT: "eighty", TRUST_PROXY: "maybe", CDN_MAX_AGE: "-5", DATA_DIR: dataDir }),
    );
    expect(await started.exit).toBe(3);
    const output = started.output();
    expect(output).toContain("5 problem(s)");
    expect(output).toMatch(/PORT: must be a port number/);
    expect(output).toMatch(/TRUST_PROXY: must be true, false or a number/);
    expect(output).toMatch(/CDN_MAX_AGE:/);
    expect(output).toMatch(/APPWRITE_ENDPOINT: not set.*EMBEDDED_APPWRITE=1/);
    expect(output).toMatch(/SITE_URL: required in production.*https:\/\/example\.com/);
    expect(output).not.toContain("Site ready");
  });

  it("refuses the embedded default in production unless EMBEDDED_APPWRITE=1, and names a half-set Appwrite", async () => {
    const embedded = run(baseEnv({ NODE_ENV: "production", SITE_URL: "https://example.com", DATA_DIR: dataDir }));
    expect(await embedded.exit).toBe(3);
    expect(embedded.output()).toContain("1 problem(s)");
    expect(embedded.output()).toMatch(/APPWRITE_ENDPOINT: not set/);

    const half = run(
      baseEnv({
        NODE_ENV: "production",
        SITE_URL: "https://example.com",
        APPWRITE_ENDPOINT: "https://cloud.appwrite.io/v1",
      }),
    );
    expect(await half.exit).toBe(3);
    expect(half.output()).toMatch(/APPWRITE_PROJECT_ID and APPWRITE_API_KEY must be set too/);
  });
});

describe("npm run start:prod: running", () => {
  let emulator: RunningEmulator;
  let emulatorDir: string;
  beforeAll(async () => {
    emulatorDir = await mkdtemp(path.join(tmpdir(), "studio-prod-appwrite-"));
    emulator = await startEmulator({ dataDir: emulatorDir, port: 0, sessionDuration: EMBEDDED_SESSION_SECONDS });
  });
  afterAll(async () => {
    await emulator?.close();
    await rm(emulatorDir, { recursive: true, force: true });
  });

  it("with a real Appwrite whose schema is missing: alive, not ready until studio setup, then serves pages", async () => {
    const started = run(
      baseEnv({
        NODE_ENV: "production",
        PORT: "0",
        SITE_URL: "https://example.com",
        APPWRITE_ENDPOINT: emulator.endpoint,
        APPWRITE_PROJECT_ID: emulator.projectId,
        APPWRITE_API_KEY: emulator.apiKey,
        DATA_DIR: dataDir,
      }),
    );
    try {
      const url = await siteUrl(started);
      expect(started.output()).toMatch(/Schema: not current \(database main_db missing.*npx studio setup/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const notReady = await fetch(`${url}/readyz`);
      expect(notReady.status).toBe(503);
      expect(notReady.headers.get("cache-control")).toBe("no-store");
      const body = (await notReady.json()) as { ready: boolean; schema: string; missing: string[] };
      expect(body).toMatchObject({ ready: false, appwrite: "up", schema: "outdated" });
      expect(body.missing).toContain("table ventures missing");
      expect(JSON.stringify(body)).not.toContain(emulator.apiKey);

      const services = createAdminServices(emulator);
      await applySchema(services, schema as AppwriteSchema);
      await push(services, { contentDir: path.join(ROOT, "content") });
      let ready = 503;
      for (let i = 0; i < 100 && ready !== 200; i += 1) {
        ready = (await fetch(`${url}/readyz`)).status; // answers are reused 5 s
        if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(ready).toBe(200);
      const page = await fetch(`${url}/en`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('lang="en"');
    } finally {
      expect(await stop(started)).toBe(0);
    }
  });

  it("with EMBEDDED_APPWRITE=1 and WEB_CONCURRENCY=2: the embedded server, the schema applied, two bundled site processes, ready", async () => {
    const started = run(
      baseEnv({
        NODE_ENV: "production",
        PORT: "0",
        WEB_CONCURRENCY: "2",
        EMULATOR_PORT: "0",
        SITE_URL: "https://example.com",
        EMBEDDED_APPWRITE: "1",
        DATA_DIR: dataDir,
      }),
    );
    try {
      const url = await siteUrl(started);
      expect(started.output()).toMatch(/Embedded Appwrite-compatible server/);
      expect(started.output()).toMatch(/2 site processes/);
      const ready = await fetch(`${url}/readyz`);
      expect(await ready.json()).toEqual({ ready: true, appwrite: "up", schema: "current" });
      expect((await fetch(`${url}/ar`)).status).toBe(200);
    } finally {
      expect(await stop(started)).toBe(0);
    }
  });
});
