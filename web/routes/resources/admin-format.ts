import { getI18n } from "../../i18n/catalog.server.ts";
import { data } from "react-router";
import { checkHtmlBounds } from "../../../lib/html/bounds.ts";
import { FormatterBusyError, formatHtmlOffThread, FormatTimeoutError } from "../../../lib/html/format-thread.ts";
import { bodyBoundsMessage } from "../../data/admin.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import type { Route } from "./+types/admin-format";

/**
 * The Format button (spec §2: indents the HTML two spaces per nesting level), for signed-in users. Runs on the
 * server so Prettier never reaches the browser (issue #8). POST `html` → `{html}` or `{error}` (400). A body that
 * breaks `HTML_BOUNDS` is refused before Prettier parses it (SECURITY C53); Prettier runs on the formatter
 * thread, off the event loop, within a time budget, two bodies per user at a time (C70; 503 `{error}` when busy).
 */
export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireUser(request);
  const locale = preferredLocale(request);
  const { t } = getI18n(locale);
  const html = String((await request.formData()).get("html") ?? "");
  const violation = checkHtmlBounds(html);
  if (violation) return data({ error: bodyBoundsMessage(locale, violation) }, { status: 400 });
  try {
    return { html: await formatHtmlOffThread(html, user.id) };
  } catch (error) {
    if (error instanceof FormatterBusyError) {
      return data({ error: t("admin.errors.formatBusy") }, { status: 503, headers: { "Retry-After": "1" } });
    }
    if (error instanceof FormatTimeoutError) return data({ error: t("admin.errors.body.complexity") }, { status: 400 });
    if (!(error instanceof SyntaxError)) throw error;
    return data({ error: t("admin.errors.format", { reason: error.message.split("\n")[0] }) }, { status: 400 });
  }
}
