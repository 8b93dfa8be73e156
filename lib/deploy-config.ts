/**
 * The settings of a deployment (issue #32 "Outgrowing one machine"), beside `lib/config.ts`'s: the public
 * address, the embedded default's explicit switch, and the shared-cache (CDN) settings; plus the production
 * start's check of the whole configuration at once (`productionConfig`): every bad or missing variable is
 * listed in one error, with what to set (exit 3, `EXIT.backend`).
 */
import { z } from "zod";
import { ConfigError, configIssues, loadConfig, type AppConfig } from "./config.ts";

const seconds = (max: number) => z.coerce.number().int().min(0).max(max);
const httpUrl = (example: string) =>
  z
    .url({ message: `must be a full URL such as ${example}` })
    .refine((v) => /^https?:\/\//.test(v), `must start with http:// or https://, such as ${example}`);

const deploySchema = z.object({
  SITE_URL: httpUrl("https://example.com").optional(),
  EMBEDDED_APPWRITE: z.enum(["0", "1"], { message: "must be 1 (run the embedded server) or 0" }).optional(),
  CDN_MAX_AGE: seconds(31_536_000).default(60),
  CDN_STALE_WHILE_REVALIDATE: seconds(31_536_000).default(30),
  CDN_PURGE_URL: httpUrl("https://purge.example.com/hook").optional(),
  CDN_PURGE_TOKEN: z.string().min(16, { message: "must be at least 16 characters" }).optional(),
});

export interface DeployConfig {
  /** The public address (`SITE_URL`): links, sitemap and the hosts the site answers for (SECURITY C56). */
  siteUrl: string | undefined;
  /** `EMBEDDED_APPWRITE=1`: the embedded server is wanted, in production too (one machine only). */
  embeddedAllowed: boolean;
  /**
   * How long a shared cache (a CDN, nginx's `proxy_cache`) may serve a signed-out public page, in seconds
   * (`CDN_MAX_AGE`, `s-maxage`; default 60; 0: shared caches revalidate every time, as before).
   */
  sharedMaxAge: number;
  /** How long past that a shared cache may serve it while it fetches a new one, in seconds (default 30). */
  staleWhileRevalidate: number;
  /** URL POSTed `{"keys": [...]}` when content changes (`lib/publish/purge.ts`); unset: no purge. */
  purgeUrl: string | undefined;
  /** Sent as `Authorization: Bearer <token>` with each purge, when set. */
  purgeToken: string | undefined;
}

/** `env` without unset or empty values (empty strings count as unset, as `loadConfig` does). */
function cleaned(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""),
  );
}

function toDeployConfig(c: z.infer<typeof deploySchema>): DeployConfig {
  return {
    siteUrl: c.SITE_URL,
    embeddedAllowed: c.EMBEDDED_APPWRITE === "1",
    sharedMaxAge: c.CDN_MAX_AGE,
    staleWhileRevalidate: c.CDN_STALE_WHILE_REVALIDATE,
    purgeUrl: c.CDN_PURGE_URL,
    purgeToken: c.CDN_PURGE_TOKEN,
  };
}

/**
 * The deployment settings in `env` (default `process.env`).
 * @throws {ConfigError} naming each invalid variable and what it must be.
 */
export function loadDeployConfig(env: NodeJS.ProcessEnv = process.env): DeployConfig {
  const parsed = deploySchema.safeParse(cleaned(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration (environment or .env):\n${lines.join("\n")}`);
  }
  return toDeployConfig(parsed.data);
}

/** The rules of a production start (`NODE_ENV=production`) beyond each variable's own. */
function productionRules(env: Record<string, string>): string[] {
  const lines: string[] = [];
  if (!env.APPWRITE_ENDPOINT && env.EMBEDDED_APPWRITE !== "1") {
    lines.push(
      "  APPWRITE_ENDPOINT: not set, and the embedded Appwrite-compatible server is not used in production unless " +
        "asked for: set APPWRITE_ENDPOINT, APPWRITE_PROJECT_ID and APPWRITE_API_KEY to your Appwrite (Cloud or " +
        "self-hosted), or EMBEDDED_APPWRITE=1 to run the embedded server on this machine (one machine; back up DATA_DIR).",
    );
  }
  if (env.APPWRITE_ENDPOINT && env.EMBEDDED_APPWRITE === "1") {
    lines.push("  EMBEDDED_APPWRITE: is 1 while APPWRITE_ENDPOINT is set: unset one of them.");
  }
  if (!env.SITE_URL) {
    lines.push(
      "  SITE_URL: required in production: the public address, such as https://example.com " +
        "(absolute links, the sitemap, and the host the site answers for behind a proxy).",
    );
  }
  return lines;
}

/**
 * Validates the whole configuration for `npm run start:prod` (issue #32 item 1): `lib/config.ts`'s variables,
 * the deployment's, and, when `NODE_ENV` is `production`, the production rules (a real Appwrite or
 * `EMBEDDED_APPWRITE=1`; `SITE_URL`).
 * @returns both configurations when every variable is right.
 * @throws {ConfigError} (exit 3) listing every problem at once, one line each, with what to set.
 */
export function productionConfig(env: NodeJS.ProcessEnv = process.env): { app: AppConfig; deploy: DeployConfig } {
  const values = cleaned(env);
  const parsed = deploySchema.safeParse(values);
  const lines = [
    ...configIssues(env),
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`)),
    ...(env.NODE_ENV === "production" ? productionRules(values) : []),
  ];
  if (lines.length > 0 || !parsed.success) {
    throw new ConfigError(
      `Invalid configuration (environment or .env), ${lines.length} problem(s):\n${lines.join("\n")}`,
    );
  }
  return { app: loadConfig(env), deploy: toDeployConfig(parsed.data) };
}
