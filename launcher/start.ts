/**
 * `npm start`, the main job (issue #2): build the site when needed; unless `APPWRITE_ENDPOINT` is set,
 * start the embedded Appwrite-compatible server on loopback with `DATA_DIR`; apply `model/appwrite.json`;
 * push `content/`; serve the site on `PORT` and print its URL. Ctrl-C stops everything cleanly. A second
 * start reuses the data and writes nothing new.
 */
import "./production-env.ts"; // first: React chooses its build when it is first loaded
import path from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { connectAppwrite, type AppwriteConnection } from "../embedded-appwrite/embedded.ts";
import { preparePrivateDir } from "../embedded-appwrite/private-data.ts";
import { createAdminServices, type AppwriteTarget } from "../lib/appwrite/client.ts";
import { applyContentSchema } from "../lib/appwrite/content-schema.ts";
import type { AppwriteSchema } from "../lib/appwrite/setup.ts";
import { ConfigError, loadConfig, loadDotEnv } from "../lib/config.ts";
import { lockPathFor } from "../lib/publish/lock.ts";
import { ContentFolderError, describeError, push } from "../lib/publish/push.ts";
import schema from "../model/appwrite.json" with { type: "json" };
import { ensureBuild } from "../server/build.ts";
import { startSite } from "../server/serve-site.ts";
import { startSiteProcesses } from "../server/site-processes.ts";
import { ensureLauncherBundle } from "./bundle.ts";
import { BUILD_LOG, isVerbose, pushedLines, readyLines } from "./start-report.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<void> {
  process.chdir(root);
  loadDotEnv();
  const config = loadConfig();

  // Build details are for --verbose or the log file; a person needs the address, the data and the push (#34).
  const verbose = isVerbose();
  const detail = (line: string) => {
    if (verbose) console.log(line);
  };
  const buildLog = path.join(root, BUILD_LOG);
  await ensureBuild(root, {
    logFile: verbose ? undefined : buildLog,
    onStart: () =>
      console.log(
        verbose ? "Building the site…" : `Building the site (first start or changed sources; details in ${BUILD_LOG})…`,
      ),
  });

  // What is running, for Ctrl-C: stopped in reverse order of start.
  const running: { appwrite?: AppwriteConnection; site?: { close(): Promise<void> } } = {};
  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping...`);
    await running.site?.close();
    await running.appwrite?.close();
    process.exit(exitCode);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  // The embedded server gets its own thread, so its work runs beside the site's on the other core.
  const appwrite = await connectAppwrite(config, {
    thread: true,
    onCrash: (error) => {
      console.error(`The embedded Appwrite-compatible server stopped: ${error.message}`);
      process.exit(1);
    },
  });
  running.appwrite = appwrite;
  const target: AppwriteTarget = appwrite;
  const data = appwrite.embedded
    ? `${path.resolve(config.dataDir)} (embedded Appwrite-compatible server)`
    : `Appwrite at ${target.endpoint} (project ${target.projectId})`;
  if (appwrite.embedded) {
    detail(`Embedded Appwrite-compatible server: ${target.endpoint} (project ${target.projectId})`);
    // The site's loaders read these, like any configured Appwrite.
    process.env.APPWRITE_ENDPOINT = target.endpoint;
    process.env.APPWRITE_PROJECT_ID = target.projectId;
    process.env.APPWRITE_API_KEY = target.apiKey;
  } else {
    // The embedded server tightens DATA_DIR when it starts; with a real Appwrite it still holds the preview
    // secret (and older exports): tighten it here (SECURITY C73).
    if (existsSync(config.dataDir)) preparePrivateDir(config.dataDir);
  }

  const services = createAdminServices(target);
  const changes = await applyContentSchema(services, schema as AppwriteSchema, {
    studioOwnerEmail: config.studioOwnerEmail,
  });
  if (changes.length) console.log(`Schema: ${changes.length} change(s) applied.`);
  else detail("Schema: up to date.");

  const contentDir = path.join(root, "content");
  const lockPath = lockPathFor({ embedded: appwrite.embedded !== null, contentDir, dataDir: config.dataDir });
  // No content files (a fresh project): the site starts empty; push refuses such a folder (C59).
  const result = await push(services, { contentDir, lockPath }).catch((error: unknown) => {
    if (!(error instanceof ContentFolderError)) throw error;
    console.log(`Pushed content/: nothing (${error.message.split(";")[0]}).`);
    return null;
  });
  if (result) for (const line of pushedLines(result)) console.log(line);

  const siteOptions = { root, port: config.port, host: config.host, trustProxy: config.trustProxy };
  // WEB_CONCURRENCY > 1: that many site processes share the port, one render each at a time (issue #18).
  const site =
    config.webConcurrency > 1
      ? await startSiteProcesses(
          config.webConcurrency,
          await ensureLauncherBundle(root),
          siteOptions,
          console.error,
          () => {
            void stop("No site process is left", 1);
          },
        )
      : await startSite(siteOptions);
  running.site = site;
  const shown = config.host === "127.0.0.1" || config.host === "0.0.0.0" ? `http://localhost:${site.port}` : site.url;
  console.log("");
  for (const line of readyLines({ url: shown, data, processes: config.webConcurrency })) console.log(line);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(`npm start failed: ${describeError(error)}`);
  if (!(error instanceof ConfigError) && process.env.DEBUG) console.error(error);
  process.exit(1);
});
