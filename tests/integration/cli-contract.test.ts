/**
 * `studio`'s contract as a new user tries it (issue 14 item 5): every message says what happened, why and
 * what to do; exit codes follow the README; everything `studio` writes passes `format --check`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Query } from "node-appwrite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { appwriteEnv, copyFixtureContent, ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let backend: Backend;
let gemini: FakeGemini;
beforeAll(async () => {
  gemini = await startFakeGemini();
});
afterAll(async () => gemini.close());
beforeEach(async () => {
  backend = await startBackend();
});
afterEach(async () => backend.close());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `studio` with piped output (or, with `tty`, in a pseudo-terminal of `tty.columns` columns). */
function studio(args: string[], env: NodeJS.ProcessEnv = {}, tty?: { columns: number }): Promise<Run> {
  const bin = path.join(ROOT, "cli/bin.js");
  const [command, argv] = tty
    ? [
        "script",
        [
          "-qec",
          `stty cols ${tty.columns} rows 40; ${[process.execPath, bin, ...args].map((a) => `'${a}'`).join(" ")}`,
          "/dev/null",
        ],
      ]
    : [process.execPath, [bin, ...args]];
  return new Promise((resolve) => {
    const child = spawn(command, argv, {
      cwd: ROOT,
      env: { ...appwriteEnv(backend.emulator), CI: "", ...(tty ? { TERM: "xterm-256color" } : {}), ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const resultOf = (run: Run) => JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
const POST = (front: string, body = "## Why\n\nText.\n\n- a\n- b\n\n> Quote.") => `---\n${front}\n---\n\n${body}\n`;

describe("studio, as tried by a new user", () => {
  it("preview of a file that does not exist exits 2 naming it (not a bug)", async () => {
    const run = await studio(["preview", "content/posts/nope.md"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/content\/posts\/nope\.md does not exist/);
    expect(run.stderr).not.toMatch(/bug| {4}at /);
  });

  it("the committed content passes format --check (the README's CI recipe)", async () => {
    const run = await studio(["format", "--check"]);
    expect(run.stdout).toMatch(/0 file\(s\) need formatting/);
    expect(run.code).toBe(0);
  });

  it("format --check <file> checks that file, given from the project folder; an unknown file is exit 2", async () => {
    const dir = await copyFixtureContent();
    const one = await studio(["format", "--check", "--dir", dir, path.join(dir, "ventures/beta-works.html")]);
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/would format ventures\/beta-works\.html/);
    const relative = await studio(["format", "--check", "--dir", dir, "ventures/beta-works.html"]);
    expect(relative.code).toBe(1);
    const missing = await studio(["format", "--check", "--dir", dir, "posts/nope.md"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/posts\/nope\.md/);
  });

  it("pull writes files that pass format --check", async () => {
    const dir = await copyFixtureContent();
    expect((await studio(["format", "--dir", dir])).code).toBe(0);
    expect((await studio(["push", "--dir", dir, "--json"])).code).toBe(0);
    const page = await backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      queries: [Query.equal("slug", "hello-world")],
    });
    await backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: page.documents[0]!.$id,
      data: {
        content:
          "<h2>Edited</h2><p>A long paragraph written in the admin, on one line, longer than one hundred characters so Prettier wraps it.</p><ul><li>a</li></ul>",
      },
    });
    expect((await studio(["pull", "--dir", dir, "--json"])).code).toBe(0);
    const check = await studio(["format", "--check", "--dir", dir]);
    expect(check.stdout).toMatch(/0 file\(s\) need formatting/);
    expect(check.code).toBe(0);
  });

  it("generate writes a draft that passes format --check and previews its provenance readably", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "generate-"));
    gemini.script({
      json: {
        title: "Why Small Agencies Win",
        slug: "why-small-agencies-win",
        excerpt: "Focus beats size.",
        content:
          "<h2>Focus</h2><p>One job. Done well, by a small team that knows its customers by name and answers the phone.</p><ul><li>a</li></ul><blockquote>Small is fast.</blockquote>",
      },
    });
    const run = await studio(["generate", "post", "--topic", "small agencies", "--dir", dir, "--json"], {
      GEMINI_API_KEY: "test-key",
      GEMINI_BASE_URL: gemini.baseUrl,
    });
    expect(run.code).toBe(0);
    expect((await studio(["format", "--check", "--dir", dir])).code).toBe(0);

    const preview = await studio(["preview", path.join(dir, "posts/why-small-agencies-win.html")]);
    expect(preview.stdout).not.toContain("[object Object]");
    expect(preview.stdout).toMatch(/generated\s+gemini-2\.5-flash, .*topic "small agencies"/);
  });

  it("generate with an unknown kind says what is wrong and shows the usage (exit 2)", async () => {
    const run = await studio(["generate", "foo", "--topic", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/foo/);
    expect(run.stderr).toMatch(/venture, post/);
    expect(run.stderr).toMatch(/Usage: studio generate/);
  });

  it("validation messages name the field, the expected form and an example", async () => {
    const dir = await copyFixtureContent();
    await writeFile(path.join(dir, "posts/no-author.md"), POST("title: T\nexcerpt: E\npublishedDate: 2026-03-14"));
    await writeFile(
      path.join(dir, "posts/bad-date.md"),
      POST("title: T\nexcerpt: E\nauthorName: A\npublishedDate: 14/03/2026"),
    );
    await writeFile(path.join(dir, "posts/bad-yaml.md"), POST("title: T: x\nexcerpt: [E"));
    const run = await studio(["push", "--dir", dir, "--dry-run"]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/Invalid input/);
    expect(run.stderr).toMatch(/posts\/no-author\.md: authorName: is missing; add it, e.g\. authorName: /);
    expect(run.stderr).toMatch(/posts\/bad-date\.md: publishedDate: expected a date like 2026-03-14/);
    const yaml = run.stderr.split("\n").find((l) => l.includes("posts/bad-yaml.md"))!;
    expect(yaml).toMatch(/front matter: is not valid YAML/);
    expect(yaml).toMatch(/line \d+/);
    expect(yaml).not.toMatch(/:\s*$/);
  });

  it("refuses an image outside the content folder, naming file and field", async () => {
    const dir = await copyFixtureContent();
    const outside = await mkdtemp(path.join(tmpdir(), "outside-"));
    await copyFile(path.join(dir, "images/hello-cover.png"), path.join(outside, "x.png"));
    const ref = path.relative(path.join(dir, "posts"), path.join(outside, "x.png"));
    expect(ref.startsWith("../../")).toBe(true);
    await writeFile(
      path.join(dir, "posts/escape.md"),
      POST(`title: T\nexcerpt: E\nauthorName: A\npublishedDate: 2026-03-14\nfeaturedImage: ${ref}`),
    );
    const run = await studio(["push", "--dir", dir, "--dry-run"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/posts\/escape\.md: featuredImage: .*outside the content folder/);
  });

  it("warns about stray files and removed HTML, and calls a binary file not a text file", async () => {
    const dir = await copyFixtureContent();
    await writeFile(path.join(dir, "x.md"), POST("title: Stray"));
    await mkdir(path.join(dir, "posts/sub"));
    await writeFile(path.join(dir, "posts/sub/x.md"), POST("title: Stray"));
    await writeFile(
      path.join(dir, "posts/scripted.html"),
      POST(
        "title: T\nexcerpt: E\nauthorName: A\npublishedDate: 2026-03-14",
        '<h2>Hi</h2>\n<p onclick="steal()">Text</p>\n<script>steal()</script>\n<ul>\n  <li>a</li>\n</ul>\n<blockquote>Q</blockquote>',
      ),
    );
    await copyFile(path.join(dir, "images/hello-cover.png"), path.join(dir, "posts/binary.md"));
    const run = await studio(["push", "--dir", dir, "--dry-run"]);
    expect(run.stderr).toMatch(/x\.md: .*ignored/);
    expect(run.stderr).toMatch(/posts\/sub\/x\.md: .*ignored/);
    expect(run.stderr).toMatch(/posts\/scripted\.html: body: removed <script> \(not allowed\)/);
    expect(run.stderr).toMatch(/posts\/scripted\.html: body: removed the onclick attribute/);
    expect(run.stderr).toMatch(/posts\/binary\.md: file: is not a text file/);
    expect(run.stderr).not.toMatch(/posts\/binary\.md: (title|excerpt)/);
  });

  it("preview --json describes images by path, size and type, not their bytes", async () => {
    const dir = await copyFixtureContent();
    const run = await studio(["preview", path.join(dir, "posts/hello-world.md"), "--json"]);
    const result = resultOf(run);
    expect(run.stdout).not.toMatch(/"bytes"/);
    expect((result.item as { image: unknown }).image).toMatchObject({
      path: expect.stringMatching(/hello-cover\.png$/),
      size: expect.any(Number),
      type: "image/png",
    });
  });

  it("a conflict and invalid content together exit 4 (the README's order), reporting both", async () => {
    const dir = await copyFixtureContent();
    expect((await studio(["push", "--dir", dir, "--json"])).code).toBe(0);
    const page = await backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      queries: [Query.equal("slug", "second-post")],
    });
    await backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: page.documents[0]!.$id,
      data: { title: "Edited in the admin" },
    });
    await writeFile(
      path.join(dir, "posts/second-post.md"),
      POST("title: Changed\nexcerpt: E\nauthorName: A\npublishedDate: 2026-03-14"),
    );
    await writeFile(path.join(dir, "posts/broken.md"), POST("title: T"));
    const run = await studio(["push", "--dir", dir]);
    expect(run.code).toBe(4);
    expect(run.stdout).toMatch(/conflict post second-post/);
    expect(run.stderr).toMatch(/posts\/broken\.md/);
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
  it("no command runs code from a ---js front matter (SECURITY C62): each names the file and refuses it", async () => {
    const dir = await copyFixtureContent();
    const marker = path.join(dir, "pwned");
    const code = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, process.env.APPWRITE_API_KEY ?? "")`;
    await writeFile(path.join(dir, "posts", "evil.md"), `---js\n{ title: ${code} || "T" }\n---\nBody\n`);
    for (const args of [
      ["preview", path.join(dir, "posts", "evil.md")],
      ["format", "--check", "--dir", dir],
      ["push", "--dry-run", "--dir", dir],
      ["status", "--dir", dir],
    ]) {
      const run = await studio(args);
      expect(`${run.stdout}${run.stderr}`, args.join(" ")).toMatch(/evil\.md[\s\S]*make the first line just ---/);
      expect(existsSync(marker), args.join(" ")).toBe(false);
    }
  });
});

describe("studio's output contract (issue #34)", () => {
  const lines = (run: Run) => run.stdout.trim().split("\n").filter(Boolean);

  it("with --json, a fatal error ends stdout with an NDJSON error line (exit 2), the words on stderr", async () => {
    const run = await studio(["push", "--json", "--dir", "/nonexistent/content"]);
    expect(run.code).toBe(2);
    for (const line of lines(run)) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(resultOf(run)).toMatchObject({ type: "error", exit: 2, message: expect.stringContaining("/nonexistent/content") });
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
