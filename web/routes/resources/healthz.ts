import { appwriteLocation } from "../../data/appwrite.server.ts";

/**
 * `GET /healthz` (issue #9 "Ops"): 200 while the site process serves requests, with whether Appwrite answers
 * within a second. It never waits longer, so it stays fast when Appwrite hangs (SECURITY C51).
 */
export async function loader() {
  const target = appwriteLocation();
  const appwrite = await fetch(`${target.endpoint}/health/version`, { signal: AbortSignal.timeout(1000) }).then(
    (response) => (response.ok ? "up" : "down"),
    () => "down",
  );
  return Response.json({ status: "ok", appwrite }, { headers: { "Cache-Control": "no-store" } });
}
