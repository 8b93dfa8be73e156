// Child-process entry (tests, fault figures): serve the production build on a free loopback port against the
// Appwrite named by APPWRITE_ENDPOINT/APPWRITE_PROJECT_ID/APPWRITE_API_KEY, and print `{"url","pid"}` on one line.
import "../../launcher/production-env.ts";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSite } from "../../server/serve-site.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const site = await startSite({ root, port: 0 });
console.log(JSON.stringify({ url: site.url, pid: process.pid }));
