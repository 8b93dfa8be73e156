import { data } from "react-router";
import { slugSchema } from "../../../model/content.ts";
import { CONTENT_KIND_NAMES, type ContentKind } from "../../../model/model.ts";
import { PREVIEW_LINK_TTL_MS } from "../../../lib/publish/preview-link.ts";
import { getI18n } from "../../i18n/catalog.server.ts";
import { siteOrigin } from "../../data/origin.server.ts";
import { sharePreviewUrl } from "../../data/preview.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import type { Route } from "./+types/admin-preview-link";
import { intlLocaleOf } from "../../i18n/i18n.ts";

/**
 * "Share preview" (issue #16 item 3), for signed-in users: POST `kind` (venture or post) and `slug` →
 * `{url, expires}`, the item's public URL with a signed token that works signed-out for 7 days; 400 `{error}`
 * for another kind or a malformed slug.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const kind = String(form.get("kind") ?? "");
  const slug = slugSchema.safeParse(String(form.get("slug") ?? ""));
  if (!CONTENT_KIND_NAMES.includes(kind as ContentKind) || !slug.success) {
    return data({ error: getI18n(preferredLocale(request)).t("admin.errors.badRequest") }, { status: 400 });
  }
  const locale = preferredLocale(request);
  const url = await sharePreviewUrl(siteOrigin(request), locale, kind as ContentKind, slug.data);
  const expires = new Date(Date.now() + PREVIEW_LINK_TTL_MS).toLocaleString(intlLocaleOf(locale), {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "UTC",
  });
  return { url, expires: `${expires} UTC` };
}
