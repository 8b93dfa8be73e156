import { sanitizeHtml } from "../../../lib/html/sanitize.ts";
import { requireUser } from "../../server/session.server.ts";
import type { Route } from "./+types/admin-preview-html";

/** The Preview tab: the HTML as it would be stored and rendered, sanitized on the server (POST `html` → `{html}`). */
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  return { html: sanitizeHtml(String((await request.formData()).get("html") ?? "")) };
}
