import { data } from "react-router";
import { isContentKind } from "../../../model/model.ts";
import { saveItem } from "../../data/admin-save.server.ts";
import { AUTOSAVE_INTENT } from "../../data/admin-autosave.server.ts";
import { getI18n } from "../../i18n/catalog.server.ts";
import { preferredLocale } from "../../data/session.server.ts";
import type { Route } from "./+types/admin-autosave";

/**
 * Autosave of a draft (issue #29 item 3): POST `?kind=<kind>[&id=<document id>]` with the edit form's fields
 * and `intent=autosave` → the edit form's own action (`saveItem`: same session, permissions, validation,
 * sanitizing and edit-conflict check) answering JSON: 200 `{autosaved: {id, version, otherVersions, at}}`, 400
 * `{errors, formError}`, 409 `{formError, conflict}` (someone else saved since) or `{formError, notDraft}` (the
 * item is published or scheduled: not autosaved). Without `id` it creates the item as a draft. 400 for another
 * kind, a malformed id, or another intent (Save posts to the edit page, never here).
 */
export async function action({ request }: Route.ActionArgs) {
  const url = new URL(request.url);
  const kind = url.searchParams.get("kind");
  const id = url.searchParams.get("id") ?? undefined;
  const intent = (await request.clone().formData()).get("intent");
  if (
    !isContentKind(kind) ||
    (id !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/.test(id)) ||
    intent !== AUTOSAVE_INTENT
  ) {
    return data({ formError: getI18n(preferredLocale(request)).t("admin.errors.badRequest") }, { status: 400 });
  }
  return saveItem(request, kind, id);
}
