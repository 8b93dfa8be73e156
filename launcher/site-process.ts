/**
 * The entry of each site process `npm start` forks when `WEB_CONCURRENCY` > 1 (`server/site-processes.ts`):
 * production mode, then the site alone; the launcher already started the embedded server, applied the schema
 * and pushed `content/`, so none of that is loaded here.
 */
import "./production-env.ts"; // first: React chooses its build when it is first loaded
import { serveSiteProcess } from "../server/site-processes.ts";

serveSiteProcess().catch((error: unknown) => {
  console.error(`A site process failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
