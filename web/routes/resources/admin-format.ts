import { getI18n } from "../../i18n/catalog.server.ts";
import { data } from "react-router";
import { checkHtmlBounds } from "../../../lib/html/bounds.ts";
import { formatHtml } from "../../../lib/html/format.ts";
import { bodyBoundsMessage } from "../../server/admin.server.ts";
import { preferredLocale, requireUser } from "../../server/session.server.ts";
import type { Route } from "./+types/admin-format";

/**
 * The Format button (spec §2: indents the HTML two spaces per nesting level), for signed-in users. Runs on the
 * server so Prettier never reaches the browser (issue #8). POST `html` → `{html}` or `{error}` (400). A body that
 * breaks `HTML_BOUNDS` is refused before Prettier parses it (SECURITY C53).
 */
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  const html = String((await request.formData()).get("html") ?? "");
  const violation = checkHtmlBounds(html);
  if (violation) return data({ error: bodyBoundsMessage(preferredLocale(request), violation) }, { status: 400 });
  try {
    return { html: await formatHtml(html) };
  } catch (error) {
    return data(
      {
        error: getI18n(preferredLocale(request)).t("admin.errors.format", {
          reason: (error as Error).message.split("\n")[0],
        }),
      },
      { status: 400 },
    );
  }
}
