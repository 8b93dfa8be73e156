/**
 * The web server's Appwrite access (ARCHITECTURE decision 2: the browser never talks to Appwrite). Public
 * pages read with the API-key client; the configuration is read once, on first use.
 */
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
