/**
 * Configuration from the environment (ARCHITECTURE.md "Configuration"), validated against one schema.
 * Read lazily: nothing here runs at import time, so the CLI's `--help` never pays for it.
 */
import { availableParallelism } from "node:os";
import { z } from "zod";
import { AbortError, EXIT } from "./errors.ts";

const PORT_MESSAGE = "must be a port number (0-65535; 0 picks a free one)";
const port = z.coerce
  .number({ message: PORT_MESSAGE })
  .int({ message: PORT_MESSAGE })
  .min(0, { message: PORT_MESSAGE })
  .max(65535, { message: PORT_MESSAGE });

const configSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  APPWRITE_ENDPOINT: z
    .url({ message: "must be a full URL such as https://cloud.appwrite.io/v1" })
    .refine((v) => /^https?:\/\//.test(v), "must start with http:// or https://")
    .optional(),
  EMULATOR_PORT: port.default(8787),
  APPWRITE_PROJECT_ID: z.string().min(1).optional(),
  APPWRITE_API_KEY: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  OPEN_REGISTRATION: z.enum(["true", "false"], { message: "must be true or false" }).default("true"),
  // The public page cache (docs/decisions/0006): "off" renders every request (measuring, debugging).
  PAGE_CACHE: z.enum(["on", "off"], { message: "must be on or off" }).default("on"),
  // Site processes `npm start` runs on the one port (Heroku's and Render's name): a number, or auto (one a core).
  WEB_CONCURRENCY: z
    .string()
    .regex(/^(auto|[1-9]\d?)$/, { message: "must be auto or a number of site processes (1-99)" })
    .default("1"),
  // Reverse proxies in front of the site: true = 1, false = 0, or a count (Express's `trust proxy` hop count).
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, { message: "must be true, false or a number of proxy hops (0-99)" })
    .default("false"),
  PREVIEW_SECRET: z
    .string()
    .min(32, { message: "must be at least 32 characters (generate one with `openssl rand -hex 32`)" })
    .optional(),
  GEMINI_API_KEY: z.string().min(1).optional(),
  GEMINI_TEXT_MODEL: z.string().min(1).default("gemini-2.5-flash"),
  GEMINI_IMAGE_MODEL: z.string().min(1).default("gemini-2.5-flash-image"),
  GEMINI_BASE_URL: z.url({ message: "must be a full URL" }).optional(),
  GEMINI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
});

export interface AppConfig {
  /** Site port (0 picks a free one). */
  port: number;
  /** Interface the site binds to; loopback unless deployed behind a proxy (`0.0.0.0`). */
  host: string;
  /** A real Appwrite endpoint ending in `/v1`; undefined means the embedded emulator. */
  appwriteEndpoint: string | undefined;
  emulatorPort: number;
  projectId: string | undefined;
  apiKey: string | undefined;
  dataDir: string;
  /** Anyone may register (spec §6); false: only the first account can be created. */
  openRegistration: boolean;
  /** Whether signed-out public pages are cached (`PAGE_CACHE`, default on; docs/decisions/0006). */
  pageCache: boolean;
  /**
   * How many site processes `npm start` runs on its port (`WEB_CONCURRENCY`: a number, or `auto` for one per
   * core, `os.availableParallelism()`; default 1). Node's cluster module shares the port between them.
   */
  webConcurrency: number;
  /**
   * Reverse proxies in front of the site (`TRUST_PROXY`: `true` is 1, `false` 0, or a number N). The client IP
   * is the N-th `X-Forwarded-For` entry from the right, the scheme and host come from `X-Forwarded-Proto` /
   * `X-Forwarded-Host` when N ≥ 1 (Express's `trust proxy` with a hop count; `server/http/proxy.ts`).
   */
  trustProxy: number;
  /**
   * The secret signing shared preview links (issue #16; `lib/publish/preview-link.ts`); unset: one generated
   * and kept in `DATA_DIR/preview-secret`. Every site process behind one address needs the same one.
   */
  previewSecret: string | undefined;
  geminiApiKey: string | undefined;
  /** Text model for drafting (spec §7: gemini-2.5-flash). */
  geminiTextModel: string;
  /** Image model (see docs/decisions/0003-ai-drafting.md for why not imagen-3.0-generate-002). */
  geminiImageModel: string;
  /** Another Gemini API base URL (a proxy, or a local fake in tests). */
  geminiBaseUrl: string | undefined;
  /** The whole budget of one drafting call, retries and repair included, in ms. */
  geminiTimeoutMs: number;
}

/** A configuration value the user must fix; the message names the variable and what to set. */
export class ConfigError extends AbortError {
  override name = "ConfigError";
  constructor(message: string) {
    super(message, {
      exitCode: EXIT.backend,
      nextSteps: "Fix that variable in the environment or .env, then run the command again.",
    });
  }
}

/** `env` without unset or empty values (empty strings count as unset). */
function cleanedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""),
  );
}

/**
 * Every problem of the configuration in `env`, each as one line `  NAME: what to set` (the schema's rules,
 * then the rules between variables), so a start lists them all at once (issue #32 item 1).
 * @returns an empty list when `loadConfig(env)` succeeds.
 */
export function configIssues(env: NodeJS.ProcessEnv = process.env): string[] {
  const cleaned = cleanedEnv(env);
  const parsed = configSchema.safeParse(cleaned);
  const lines = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
  if (cleaned.APPWRITE_ENDPOINT && (!cleaned.APPWRITE_PROJECT_ID || !cleaned.APPWRITE_API_KEY)) {
    lines.push(`  ${ENDPOINT_NEEDS}`);
  }
  return lines;
}

const ENDPOINT_NEEDS =
  "APPWRITE_ENDPOINT is set, so APPWRITE_PROJECT_ID and APPWRITE_API_KEY must be set too " +
  "(a server API key with databases, storage and users scopes). Unset APPWRITE_ENDPOINT to use the embedded server.";

/**
 * Parses the configuration from `env` (default `process.env`; empty strings count as unset).
 * @throws {ConfigError} naming each invalid variable and what it must be.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(cleanedEnv(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration (environment or .env):\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  if (c.APPWRITE_ENDPOINT && (!c.APPWRITE_PROJECT_ID || !c.APPWRITE_API_KEY)) throw new ConfigError(ENDPOINT_NEEDS);
  return {
    port: c.PORT,
    host: c.HOST,
    appwriteEndpoint: c.APPWRITE_ENDPOINT?.replace(/\/+$/, ""),
    emulatorPort: c.EMULATOR_PORT,
    projectId: c.APPWRITE_PROJECT_ID,
    apiKey: c.APPWRITE_API_KEY,
    dataDir: c.DATA_DIR,
    openRegistration: c.OPEN_REGISTRATION === "true",
    pageCache: c.PAGE_CACHE === "on",
    webConcurrency: c.WEB_CONCURRENCY === "auto" ? availableParallelism() : Number(c.WEB_CONCURRENCY),
    trustProxy: c.TRUST_PROXY === "true" ? 1 : c.TRUST_PROXY === "false" ? 0 : Number(c.TRUST_PROXY),
    previewSecret: c.PREVIEW_SECRET,
    geminiApiKey: c.GEMINI_API_KEY,
    geminiTextModel: c.GEMINI_TEXT_MODEL,
    geminiImageModel: c.GEMINI_IMAGE_MODEL,
    geminiBaseUrl: c.GEMINI_BASE_URL,
    geminiTimeoutMs: c.GEMINI_TIMEOUT_MS,
  };
}

/** Loads `.env` from the working directory into `process.env` when the file exists (existing values win). */
export function loadDotEnv(path = ".env"): void {
  try {
    process.loadEnvFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
