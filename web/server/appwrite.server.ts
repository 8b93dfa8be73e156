/**
 * The web server's Appwrite access (ARCHITECTURE decision 2: the browser never talks to Appwrite). Public
 * pages read with the API-key client; the configuration is read once, on first use.
 */
import { AppwriteException } from "node-appwrite";
import { data } from "react-router";
import { createAdminServices, type AdminServices } from "../../lib/appwrite/client.ts";
import { loadConfig } from "../../lib/config.ts";

let services: AdminServices | undefined;

/**
 * The API-key services for the configured Appwrite. The launcher points `APPWRITE_ENDPOINT` at the embedded
 * server when it starts one.
 * @throws {ConfigError} when no Appwrite endpoint, project or key is configured.
 */
export function getAdminServices(): AdminServices {
  if (!services) {
    const config = loadConfig();
    if (!config.appwriteEndpoint || !config.projectId || !config.apiKey) {
      throw new Error(
        "The site needs APPWRITE_ENDPOINT, APPWRITE_PROJECT_ID and APPWRITE_API_KEY; start it with `npm start`.",
      );
    }
    services = createAdminServices({
      endpoint: config.appwriteEndpoint,
      projectId: config.projectId,
      apiKey: config.apiKey,
    });
  }
  return services;
}

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
