import { APPWRITE_VERSION } from "../errors.ts";
import type { Router } from "../http/router.ts";

/**
 * `GET /v1/health/version` → `{version}` (public, AW `health.php`) and `GET /v1/ping` →
 * `Pong!` as text/plain (AW `general.php`; the SDK's `client.ping()` wraps it as `{message}`).
 */
export function register(router: Router): void {
  router.add("GET", "/health/version", "public", () => ({ status: 200, json: { version: APPWRITE_VERSION } }));
  router.add("GET", "/ping", "project", () => ({ status: 200, text: "Pong!" }));
}
