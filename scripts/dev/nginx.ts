/**
 * Debian's nginx with the deployment guide's configuration (`docs/deployment/nginx.conf`), for the nginx
 * test and the cache benchmark (issue #32 item 2): the file is read as it is and only its machine-specific
 * parts are replaced (listen ports on loopback, the host name, the upstream servers, paths under a temporary
 * prefix), each replacement checked, so the test runs what the guide shows. nginx runs as the current user,
 * in the foreground (`daemon off`), with `-p <tmpdir> -c <conf>`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The configuration the deployment guide shows. */
export const NGINX_CONF = path.join(ROOT, "docs", "deployment", "nginx.conf");
/** Debian's nginx (`apt-get install nginx`; `.ci/run` installs it); `NGINX` overrides. */
export const NGINX_BIN = process.env.NGINX ?? "/usr/sbin/nginx";

export interface NginxOptions {
  /** Ports of the site processes on 127.0.0.1 (the `upstream site` servers). */
  upstreams: number[];
  /** The site's host name (replaces `example.com`; default `localhost`). */
  serverName?: string;
  /** Directives added to the site's `server` block (the benchmark's static file location). */
  extraServer?: string;
  /** The loopback port to listen on (default: a free one; `freePort()` when the sites must know it first). */
  port?: number;
}

export interface RunningNginx {
  /** The loopback port nginx listens on. */
  port: number;
  /** `http://localhost:<port>` */
  url: string;
  /** The temporary prefix (configuration, logs, cache, temp files). */
  dir: string;
  /** The access log's lines so far (`log_format site`: `cache=HIT upstream=-`…). */
  accessLog(): Promise<string[]>;
  close(): Promise<void>;
}

/** A free loopback port (bound and released; nginx binds it right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `text` with `from` replaced by `to` everywhere; throws when `from` is absent (the guide's file changed). */
function replaceChecked(text: string, from: string, to: string): string {
  if (!text.includes(from))
    throw new Error(`docs/deployment/nginx.conf no longer contains "${from}": update scripts/dev/nginx.ts`);
  return text.split(from).join(to);
}

/**
 * The guide's configuration for this machine: nginx on `port`, the site processes on `upstreams`, every
 * path under `dir`.
 * @throws {Error} when the guide's file lacks a part this replaces.
 */
export function localConfig(conf: string, dir: string, port: number, options: NginxOptions): string {
  let text = conf;
  text = replaceChecked(text, "pid /run/nginx-site.pid;", `pid ${dir}/nginx.pid;`);
  text = replaceChecked(text, "/var/log/nginx/", `${dir}/logs/`);
  text = replaceChecked(text, "/var/cache/nginx/site", `${dir}/cache`);
  text = replaceChecked(text, "listen 80 default_server;", `listen 127.0.0.1:${port} default_server;`);
  text = replaceChecked(text, "listen 80;", `listen 127.0.0.1:${port};`);
  text = replaceChecked(text, "server_name example.com;", `server_name ${options.serverName ?? "localhost"};`);
  const servers = options.upstreams.map((p) => `server 127.0.0.1:${p};`).join("\n        ");
  text = replaceChecked(text, "server 127.0.0.1:3000;\n        server 127.0.0.1:3001;", servers);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `${kind}_temp_path ${dir}/temp/${kind};`)
    .join("\n    ");
  text = replaceChecked(text, "http {\n", `http {\n    ${temp}\n`);
  if (options.extraServer) {
    text = replaceChecked(text, "        location / {\n", `${options.extraServer}\n        location / {\n`);
  }
  return text;
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts nginx with the guide's configuration (see `localConfig`) and resolves once it accepts connections.
 * @throws {Error} when nginx is not installed (with how to install it) or exits before it listens.
 */
export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  if (!existsSync(NGINX_BIN)) {
    throw new Error(`nginx is not installed at ${NGINX_BIN}: run \`apt-get install -y nginx\` (or set NGINX).`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), "studio-nginx-"));
  for (const sub of ["logs", "cache", "temp"]) await mkdir(path.join(dir, sub));
  const port = options.port ?? (await freePort());
  const confPath = path.join(dir, "nginx.conf");
  await writeFile(confPath, localConfig(await readFile(NGINX_CONF, "utf8"), dir, port, options));
  // As root nginx would hand its workers to `nobody`, who cannot write this 0700 prefix: keep the user.
  const user = process.getuid?.() === 0 ? ` user ${userInfo().username};` : "";
  const child: ChildProcess = spawn(
    NGINX_BIN,
    ["-p", dir, "-c", confPath, "-e", path.join(dir, "logs", "error.log"), "-g", `daemon off;${user}`],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let tries = 0; !(await listening(port)); tries += 1) {
    if (child.exitCode !== null || tries > 100) {
      child.kill("SIGKILL");
      const log = await readFile(path.join(dir, "logs", "error.log"), "utf8").catch(() => "");
      await rm(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start: ${stderr}${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    url: `http://localhost:${port}`,
    dir,
    accessLog: async () =>
      (await readFile(path.join(dir, "logs", "site-access.log"), "utf8").catch(() => "")).split("\n").filter(Boolean),
    close: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM"); // fast shutdown
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
