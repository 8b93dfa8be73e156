/**
 * `npm run start:prod` (issue #32 item 1): the production run of what `npm run build` made. Bundled by
 * `launcher/build.mjs` into `build/launcher/start.js`, so it runs on plain `node` (no TypeScript loader) and
 * compiles nothing at start. In order:
 *
 * 1. validates the whole configuration at once (`productionConfig`, `lib/deploy-config.ts`): every bad or
 *    missing variable listed with what to set, exit 3. In production (`NODE_ENV=production`, the default
 *    here) the embedded server runs only when asked for (`EMBEDDED_APPWRITE=1`), and `SITE_URL` is required;
 * 2. with `EMBEDDED_APPWRITE=1`, starts the embedded server (in this process) and applies the schema; with a
 *    real Appwrite, checks the schema and says what is missing (`studio setup` applies it; `/readyz` answers
 *    503 until then). `content/` is not pushed: production content comes from the admin and `studio push`;
 * 3. serves the site (`WEB_CONCURRENCY` processes) and stops cleanly on SIGTERM or SIGINT.
 *
 * `npm start` (`launcher/start.ts`) stays the development quick start.
 */
import "./production-env.ts"; // first: React chooses its build when it is first loaded
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connectAppwrite, type AppwriteConnection } from "../embedded-appwrite/embedded.ts";
import { preparePrivateDir } from "../embedded-appwrite/private-data.ts";
import { createAdminServices } from "../lib/appwrite/client.ts";
import { applyContentSchema } from "../lib/appwrite/content-schema.ts";
import { schemaDifferences } from "../lib/appwrite/schema-check.ts";
import type { AppwriteSchema } from "../lib/appwrite/setup.ts";
import { ConfigError, loadDotEnv } from "../lib/config.ts";
import { productionConfig } from "../lib/deploy-config.ts";
import { EXIT } from "../lib/errors.ts";
import { describeError } from "../lib/publish/push.ts";
import schema from "../model/appwrite.json" with { type: "json" };
import { startSite } from "../server/serve-site.ts";
import { startSiteProcesses } from "../server/site-processes.ts";

/** The project root: this file runs from `launcher/` (sources) or `build/launcher/` (the bundle). */
function projectRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const up = path.resolve(here, "..");
  return existsSync(path.join(up, "package.json")) ? up : path.resolve(here, "..", "..");
}

const root = projectRoot();

async function main(): Promise<void> {
  process.chdir(root);
  loadDotEnv();
  const { app: config } = productionConfig();
  for (const file of ["build/server/index.js", "build/launcher/site-process.js"]) {
    if (!existsSync(path.join(root, file))) {
      throw new ConfigError(`${file} is missing: run \`npm run build\` first, then \`npm run start:prod\`.`);
    }
  }

  const running: { appwrite?: AppwriteConnection; site?: { close(): Promise<void> } } = {};
  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping...`);
    await running.site?.close();
    await running.appwrite?.close();
    process.exit(exitCode);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  const appwrite = await connectAppwrite(config); // the embedded server runs in this process (no loader needed)
  running.appwrite = appwrite;
  const services = createAdminServices(appwrite);
  if (appwrite.embedded) {
    console.log(`Embedded Appwrite-compatible server: ${appwrite.endpoint} (data in ${config.dataDir})`);
    process.env.APPWRITE_ENDPOINT = appwrite.endpoint;
    process.env.APPWRITE_PROJECT_ID = appwrite.projectId;
    process.env.APPWRITE_API_KEY = appwrite.apiKey;
    const changes = await applyContentSchema(services, schema as AppwriteSchema);
    console.log(changes.length ? `Schema: ${changes.length} change(s) applied.` : "Schema: up to date.");
  } else {
    console.log(`Appwrite: ${appwrite.endpoint} (project ${appwrite.projectId})`);
    if (existsSync(config.dataDir)) preparePrivateDir(config.dataDir); // the preview secret (SECURITY C73)
    const missing = await schemaDifferences(services, schema as AppwriteSchema).catch((error: unknown) => [
      `could not be read: ${describeError(error)}`,
    ]);
    if (missing.length === 0) console.log("Schema: up to date.");
    else {
      console.warn(
        `Schema: not current (${missing.slice(0, 5).join("; ")}${missing.length > 5 ? "; …" : ""}). ` +
          "Run `npx studio setup` with this configuration; /readyz answers 503 until then.",
      );
    }
  }

  const siteOptions = { root, port: config.port, host: config.host, trustProxy: config.trustProxy };
  const site =
    config.webConcurrency > 1
      ? await startSiteProcesses(
          config.webConcurrency,
          path.join(root, "build", "launcher", "site-process.js"),
          siteOptions,
          console.error,
          () => void stop("No site process is left", 1),
        )
      : await startSite(siteOptions);
  running.site = site;
  const processes = config.webConcurrency > 1 ? `, ${config.webConcurrency} site processes` : "";
  console.log(`Site ready: ${site.url} (public address ${process.env.SITE_URL ?? site.url}${processes}).`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(EXIT.backend);
  }
  console.error(`start:prod failed: ${describeError(error)}`);
  if (process.env.DEBUG) console.error(error);
  process.exit(1);
});
