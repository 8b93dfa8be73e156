import { data } from "react-router";
import { CONTENT_KIND_NAMES, CONTENT_MODEL, type ContentKind } from "../../../model/model.ts";
import { DATABASE_ID } from "../../../model/content.ts";
import { newPreviewKey, PREVIEW_KEY_COLUMN, PREVIEW_LINK_TTL_MS } from "../../../lib/publish/preview-link.ts";
import { mayAct } from "../../../lib/publish/item-permissions.ts";
import { getI18n } from "../../i18n/catalog.server.ts";
import { siteOrigin } from "../../data/origin.server.ts";
import { sharePreviewUrl } from "../../data/preview.server.ts";
import { getItem, sessionServices } from "../../data/admin.server.ts";
import { accessOf } from "../../data/access.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import type { Route } from "./+types/admin-preview-link";
import { formatDate } from "../../../lib/text/dates.ts";
import { siteTimeZone } from "../../../lib/publish/site-time-zone.ts";
import { getApiKeyServices } from "../../data/appwrite.server.ts";

/**
 * "Share preview" (issue #16 item 3, issue #28 item 4): POST `kind` (venture or post) and `id` (the document)
 * → `{url, expires}`, the document's public URL in its locale with a token bound to it that works signed-out
 * for 7 days; with `intent=revoke`, `{revoked: true}` after changing the item's preview key, which ends every
 * link shared so far. Only for an item the user may edit (its creator, the studio team): 404 `{error}` for
 * one they cannot read or may not edit, 400 for another kind or a malformed id.
 */
export async function action({ request }: Route.ActionArgs) {
  const { secret, user } = await requireUser(request);
  const form = await request.formData();
  const kind = String(form.get("kind") ?? "");
  const id = String(form.get("id") ?? "");
  const { t } = getI18n(preferredLocale(request));
  if (!CONTENT_KIND_NAMES.includes(kind as ContentKind) || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/.test(id)) {
    return data({ error: t("admin.errors.badRequest") }, { status: 400 });
  }
  const session = sessionServices(secret);
  const doc = await getItem(session, kind as ContentKind, id);
  // The same answer for an item the user cannot read and one they may only read: nothing to learn.
  if (!doc || !mayAct(doc.$permissions, (await accessOf(user)).held, "update")) {
    return data({ error: t("admin.readOnly.noPreview") }, { status: 404 });
  }
  if (form.get("intent") === "revoke") {
    await session.tablesDB.updateRow({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL[kind as ContentKind].collectionId,
      rowId: id,
      data: { [PREVIEW_KEY_COLUMN]: newPreviewKey() },
    });
    return { revoked: true };
  }
  const url = await sharePreviewUrl(siteOrigin(request), kind as ContentKind, doc);
  // One format for a moment, in the site's time zone (issue #29 item 7).
  const zone = await siteTimeZone(getApiKeyServices().client);
  const expires = formatDate(Date.now() + PREVIEW_LINK_TTL_MS, "moment", preferredLocale(request), zone);
  return { url, expires };
}
