import { data } from "react-router";
import { previewBody } from "../../../lib/html/body.ts";
import { SanitizerBusyError } from "../../../lib/html/sanitize-thread.ts";
import { getI18n } from "../../i18n/catalog.server.ts";
import { bodyBoundsMessage } from "../../data/admin.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import type { Route } from "./+types/admin-preview-html";

/**
 * The Preview tab: the HTML as it would be stored and rendered, sanitized on the server (POST `html` → `{html}`).
 * Bounded like every write (SECURITY C53): a body that breaks `HTML_BOUNDS` is never parsed into a DOM and gets
 * `400 {error}` in the admin's language; the sanitizer runs off the event loop (`503 {error}` when it is busy).
 */
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  const locale = preferredLocale(request);
  try {
    const result = await previewBody(String((await request.formData()).get("html") ?? ""));
    if ("violation" in result) return data({ error: bodyBoundsMessage(locale, result.violation) }, { status: 400 });
    return { html: result.html };
  } catch (error) {
    if (!(error instanceof SanitizerBusyError)) throw error;
    return data(
      { error: getI18n(locale).t("admin.errors.body.busy") },
      { status: 503, headers: { "Retry-After": "1" } },
    );
  }
}
