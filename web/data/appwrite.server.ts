/**
 * The web server's Appwrite access (ARCHITECTURE decision 2: the browser never talks to Appwrite). Public
 * pages read as a guest, so Appwrite's permissions decide what they show (decision 8, SECURITY C55); the
 * API key is for server-owned work only. The configuration is read once, on first use.
 */
import { AppwriteException } from "node-appwrite";
import { data } from "react-router";
import {
  createAdminServices,
  createGuestServices,
  type AdminServices,
  type AppwriteTarget,
  type GuestServices,
} from "../../lib/appwrite/client.ts";
import { KeptCounts } from "../../lib/appwrite/content-pages.ts";
import { sharedGuestReadCache } from "../../lib/appwrite/read-cache.ts";
import { loadConfig } from "../../lib/config.ts";
import { AppwriteEventLog, type EventLog } from "../../server/limits/event-log.ts";

let keyServices: AdminServices | undefined;
let publicServices: GuestServices | undefined;
let location: Pick<AppwriteTarget, "endpoint" | "projectId"> | undefined;

/**
 * Where the configured Appwrite is: `{ endpoint, projectId }`, no secret. Session clients (`setSession`, SSR
 * guide) and image view URLs are built from it.
 * @throws {Error} when no Appwrite endpoint or project is configured.
 */
export function appwriteLocation(): Pick<AppwriteTarget, "endpoint" | "projectId"> {
  if (!location) {
    const config = loadConfig();
    if (!config.appwriteEndpoint || !config.projectId) {
      throw new Error("The site needs APPWRITE_ENDPOINT and APPWRITE_PROJECT_ID; start it with `npm start`.");
    }
    location = { endpoint: config.appwriteEndpoint, projectId: config.projectId };
  }
  return location;
}

/**
 * The API-key services for the configured Appwrite, for server-owned work only: creating a session at login
 * (Appwrite SSR guide), storing visitor submissions (their collections grant guests nothing) and uploading
 * an admin user's image after the quota check (users may not create files: SECURITY C61). API-key reads bypass
 * Appwrite's permissions, so they must never feed a public page: those read through `getPublicServices`. The launcher points
 * `APPWRITE_ENDPOINT` at the embedded server when it starts one.
 * @throws {Error} when no Appwrite endpoint, project or key is configured.
 */
export function getApiKeyServices(): AdminServices {
  if (!keyServices) {
    const config = loadConfig();
    if (!config.appwriteEndpoint || !config.projectId || !config.apiKey) {
      throw new Error(
        "The site needs APPWRITE_ENDPOINT, APPWRITE_PROJECT_ID and APPWRITE_API_KEY; start it with `npm start`.",
      );
    }
    keyServices = createAdminServices({
      endpoint: config.appwriteEndpoint,
      projectId: config.projectId,
      apiKey: config.apiKey,
    });
  }
  return keyServices;
}

/**
 * The guest services (no key, no session) every public read goes through: pages, lists, the sitemap, the
 * feeds and `/media`. Appwrite answers them with what anyone may read (`read("any")`), and only that; a
 * document without it is missing (Appwrite permissions doc; REFERENCE §6). Shared by all requests, as it
 * holds no secret. Its reads go through the process's guest read cache (`lib/appwrite/read-cache.ts`: used
 * only while the site's change feed is live, dropped on every write event, entries ≤ 5 s old).
 * @throws {Error} when no Appwrite endpoint or project is configured.
 */
export function getPublicServices(): GuestServices {
  publicServices ??= createGuestServices(appwriteLocation(), sharedGuestReadCache());
  return publicServices;
}

/**
 * How long a guest count past Appwrite's 5,000 cap (the blog's number of pages, the sitemap's parts) is kept
 * before it is probed again, in ms: 10 s. A list of 10,000 posts then renders without ~14 probes each time
 * (issue #18 item 3); a page past a kept count recounts at once (`readItemPage`).
 */
export const GUEST_COUNT_MAX_AGE_MS = 10_000;

/** Guest counts past Appwrite's cap, shared by the public lists and the sitemap (`KeptCounts`). */
export const guestCounts = new KeptCounts(GUEST_COUNT_MAX_AGE_MS);

/** How long a public page waits for Appwrite before answering 503, in ms (SECURITY C51, P: 3 s). */
export const BACKEND_TIMEOUT_MS = 3000;

/**
 * Runs `work` against Appwrite with a deadline. When Appwrite is unreachable, failing (5xx) or slower than
 * `BACKEND_TIMEOUT_MS`, the page answers 503 with the error page instead of hanging or crashing (SECURITY C50,
 * C51); the next request tries again, so the site recovers by itself when Appwrite is back.
 * @throws {Response} a 503 `data()` response for an unavailable backend; other errors pass through.
 */
export async function withBackend<T>(work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BackendUnavailable("timeout")), BACKEND_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work(), deadline]);
  } catch (error) {
    const unreachable = error instanceof TypeError && /fetch failed/i.test(error.message);
    const failing = error instanceof AppwriteException && (error.code >= 500 || error.code === 0);
    if (error instanceof BackendUnavailable || unreachable || failing) {
      console.error(`Appwrite unavailable: ${error instanceof Error ? error.message : String(error)}`);
      throw data({ unavailable: true }, { status: 503, headers: { "Retry-After": "5" } });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

class BackendUnavailable extends Error {
  override name = "BackendUnavailable";
}

let limitLog: EventLog | undefined;

/**
 * The event log every limit of the site counts in (login, sign-up, forms, AI calls: `server/limits/event-log.ts`):
 * Appwrite's `limit_events` table through the API key, so several site processes on one Appwrite share their
 * counts (issue #18 item 4). One per process.
 * @throws {Error} as `getApiKeyServices` when the site has no key.
 */
export function getLimitLog(): EventLog {
  limitLog ??= new AppwriteEventLog(getApiKeyServices());
  return limitLog;
}
