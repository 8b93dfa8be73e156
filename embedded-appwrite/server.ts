import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac } from "node:crypto";
import { AbuseLimiter } from "./auth/abuse.ts";
import { Store } from "./db/store.ts";
import { ARGON2_OPTIONS, type PasswordHashing } from "./db/users.ts";
import type { AppState } from "./http/context.ts";
import { handle } from "./http/handle.ts";
import { Router } from "./http/router.ts";
import { resolveProject } from "./project.ts";
import { EventBus } from "./realtime/bus.ts";
import { attachRealtime } from "./realtime/socket.ts";
import * as account from "./services/account.ts";
import * as attributeUpdates from "./services/attribute-updates.ts";
import * as attributes from "./services/attributes.ts";
import * as databases from "./services/databases.ts";
import * as documentCounters from "./services/document-counters.ts";
import * as transactions from "./services/transactions.ts";
import * as documents from "./services/documents.ts";
import * as fileServing from "./services/file-serving.ts";
import * as files from "./services/files.ts";
import * as health from "./services/health.ts";
import * as memberships from "./services/memberships.ts";
import * as storage from "./services/storage.ts";
import * as tablesDb from "./services/tables-db.ts";
import * as teams from "./services/teams.ts";
import * as userSessions from "./services/user-sessions.ts";
import * as users from "./services/users.ts";
import * as userImports from "./services/user-imports.ts";
import * as targets from "./services/targets.ts";
import * as providers from "./services/providers.ts";
import * as messages from "./services/messages.ts";
import { MessageDelivery } from "./messaging/delivery.ts";
import { applySmtpUrl } from "./messaging/smtp-url.ts";
import { preparePrivateDir } from "./private-data.ts";

/** Options of `startEmulator`. */
export interface EmulatorOptions {
  /** Directory for `emulator.sqlite`, `project.json` and `files/`. */
  dataDir: string;
  /** TCP port; 0 picks a free port. Default 8787. */
  port?: number;
  /** Loopback host to bind (default `127.0.0.1`); any other host is refused. */
  host?: string;
  /** Project ID; default: kept in `DATA_DIR/project.json`, generated once. */
  projectId?: string;
  /** Project ID to keep for a data folder that has none yet (default `local-` and random hex digits). */
  newProjectId?: string;
  /** API key; default: kept in `DATA_DIR/project.json`, generated once. */
  apiKey?: string;
  /**
   * Session length in seconds; default env `EMULATOR_SESSION_DURATION`, else Appwrite's one year
   * (31,536,000; AW `TOKEN_EXPIRATION_LOGIN_LONG`). SECURITY C3 advises at most 30 days.
   */
  sessionDuration?: number;
  /**
   * Browser origins (e.g. `https://studio.test`) trusted besides loopback ones, like Appwrite web
   * platforms; default env `EMULATOR_ALLOWED_ORIGINS` (comma-separated).
   */
  allowedOrigins?: readonly string[];
  /**
   * SMTP server for Messaging e-mails, `smtp[s]://user:password@host:port?from=address`; default env
   * `SMTP_URL`. When set, the enabled provider `smtp-url` is created or updated at start
   * (`messaging/smtp-url.ts`).
   */
  smtpUrl?: string;
  /**
   * Argon2id cost of new passwords (and of the dummy hash an unknown e-mail is checked against); default
   * Appwrite's m=65536 KiB, t=4, p=3 (SECURITY C11). For test suites only, as Django's test settings swap in a
   * fast hasher: the test helpers start their backends with a low cost so that each sign-up and sign-in costs
   * milliseconds, not a fifth of a CPU-second (docs/decisions/0022). `npm start` and the production launcher
   * never set it, and no environment variable does.
   */
  passwordHashing?: PasswordHashing;
}

/** A started emulator. */
export interface RunningEmulator {
  /** Base URL for the SDK, e.g. `http://127.0.0.1:8787/v1`. */
  endpoint: string;
  projectId: string;
  apiKey: string;
  /** Stop listening, close open connections, then close the database. */
  close(): Promise<void>;
}

/** Appwrite's default session length in seconds (one year). */
export const DEFAULT_SESSION_DURATION = 31_536_000;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
const SERVICES = [
  health,
  account,
  transactions,
  databases,
  attributes,
  attributeUpdates,
  documents,
  documentCounters,
  tablesDb,
  storage,
  files,
  fileServing,
  users,
  userImports,
  userSessions,
  targets,
  providers,
  messages,
  teams,
  memberships,
];

function sessionDuration(option: number | undefined): number {
  const raw = option ?? process.env["EMULATOR_SESSION_DURATION"];
  if (raw === undefined || raw === "") return DEFAULT_SESSION_DURATION;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`EMULATOR_SESSION_DURATION must be a whole number of seconds ≥ 1, got "${String(raw)}".`);
  }
  return value;
}

function allowedOrigins(option: readonly string[] | undefined): Set<string> {
  const list = option ?? (process.env["EMULATOR_ALLOWED_ORIGINS"] ?? "").split(",");
  return new Set(list.map((o) => o.trim().replace(/\/+$/, "")).filter((o) => o !== ""));
}

/** Build the shared state of one emulator: store, identity, session settings and abuse limiters. */
function createApp(options: EmulatorOptions): AppState {
  preparePrivateDir(options.dataDir); // created 0700, or tightened with all it holds (SECURITY C73)
  const identity = resolveProject(options.dataDir, options.projectId, options.apiKey, options.newProjectId);
  // One WAL sync for the writes of one event-loop turn; answers wait for it (`StoreOptions.groupCommit`).
  const store = new Store(options.dataDir, { groupCommit: true });
  try {
    applySmtpUrl(store, options.smtpUrl ?? process.env["SMTP_URL"]);
  } catch (error) {
    store.close();
    throw error;
  }
  return {
    dataDir: options.dataDir,
    ...identity,
    store,
    sessionDuration: sessionDuration(options.sessionDuration),
    jwtKey: createHmac("sha256", identity.apiKey).update("emulator-account-jwt").digest(),
    allowedOrigins: allowedOrigins(options.allowedOrigins),
    loginLimiter: new AbuseLimiter(10, 3600),
    signupLimiter: new AbuseLimiter(10, 3600),
    // An event reaches subscribers once the write it describes is committed.
    events: new EventBus((deliver) => store.afterCommit(deliver)),
    delivery: new MessageDelivery(store),
    passwordHashing: options.passwordHashing ?? ARGON2_OPTIONS,
  };
}

/**
 * Start the Appwrite-compatible server on loopback (ARCHITECTURE decision 1). Opens (or
 * creates) the SQLite store in `dataDir`, resolves the project ID and key, registers every
 * service, serves `/v1/realtime` WebSockets (`realtime/socket.ts`) and listens. Throws when `host` is not a loopback address or when
 * `sessionDuration`/`EMULATOR_SESSION_DURATION` is not a positive integer.
 */
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host)) throw new Error(`The emulator only binds to loopback; refusing host "${host}".`);
  const app = createApp(options);
  const router = new Router();
  for (const service of SERVICES) service.register(router);

  const server = createServer((req, res) => {
    handle(app, router, req, res).catch((error: unknown) => {
      console.error("[emulator] failed to answer", error);
      res.destroy();
    });
  });
  const realtime = attachRealtime(server, app);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 8787, host === "localhost" ? "127.0.0.1" : host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    // The port is taken (EADDRINUSE) or not ours to bind (EACCES): release the store, keep the error's code.
    await realtime.close();
    app.store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  app.delivery.start();
  const hostForUrl = host === "::1" ? "[::1]" : host === "localhost" ? "127.0.0.1" : host;
  return {
    endpoint: `http://${hostForUrl}:${port}/v1`,
    projectId: app.projectId,
    apiKey: app.apiKey,
    close: async () => {
      await realtime.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.delivery.close();
      app.store.close();
    },
  };
}
