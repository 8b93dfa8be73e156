/**
 * The server half of the admin's Trash page (issue #29 item 9): what the signed-in user may restore (read with
 * their session: the items they could edit), and its actions, Restore (anyone who could edit the item) and
 * Delete forever (the studio owner only). Messages in the admin's language.
 */
import { data } from "react-router";
import type { SignedInUser } from "../../server/auth/account.ts";
import { deleteItemForever, restoreItem } from "../../server/admin/trash.ts";
import { listTrash, TrashNotFoundError, type TrashedItem } from "../../lib/publish/trash.ts";
import { TrashSlugTakenError } from "../../lib/publish/trash-restore.ts";
import { CONTENT_MODEL, type ContentKind, type ContentLocale } from "../../model/model.ts";
import { formatLongDate, type Locale } from "../i18n/i18n.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { accessOf } from "./access.server.ts";
import { sessionServices } from "./admin.server.ts";
import { getApiKeyServices } from "./appwrite.server.ts";

/** One row of the Trash page. */
export interface TrashRow {
  /** The trash batch (what Restore and Delete forever post). */
  batch: string;
  kind: ContentKind;
  /** The title of the version in the admin's language, else of the first version. */
  title: string;
  /** The languages of the versions in the trash, in their order. */
  locales: ContentLocale[];
  deletedBy: string | null;
  /** When it was deleted, as the admin's long date. */
  deletedAt: string;
  daysLeft: number;
}

/** `item` as a row of the page in `locale`. */
function rowOf(item: TrashedItem, locale: Locale): TrashRow {
  const shown = item.versions.find((v) => v.locale === locale) ?? item.versions[0]!;
  return {
    batch: item.batch,
    kind: item.kind,
    title: shown.title || shown.slug,
    locales: item.versions.map((v) => v.locale),
    deletedBy: item.deletedBy,
    deletedAt: formatLongDate(item.deletedAt, locale),
    daysLeft: item.daysLeft,
  };
}

/**
 * The Trash page's data: the rows the user may restore, newest deletion first, and whether they may delete
 * forever (the studio owner).
 * @throws {AppwriteException} when Appwrite fails.
 */
export async function loadTrash(secret: string, user: SignedInUser, locale: Locale) {
  const [items, access] = await Promise.all([
    listTrash(sessionServices(secret).tablesDB),
    accessOf(user).catch(() => null),
  ]);
  return { rows: items.map((item) => rowOf(item, locale)), owner: access?.role === "owner" };
}

/** What an action answers: a sentence in the admin's language, and for a restore the restored item's edit page. */
export interface TrashReply {
  ok: boolean;
  message: string;
  edit?: string;
}

/**
 * The Trash page's actions: `intent=restore` or `intent=purge` ("Delete forever", the owner's only), with
 * `batch`. Answers a `TrashReply` (400 for a bad form, 404 when the item is no longer in the trash or the user
 * may not see it, 409 when its slug is taken, 403 for a purge by anyone but the owner).
 */
export async function trashAction(request: Request, secret: string, user: SignedInUser, locale: Locale) {
  const { t } = getI18n(locale);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const batch = String(form.get("batch") ?? "");
  const reply = (body: TrashReply, status = 200) => data(body, { status });
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/.test(batch) || !["restore", "purge"].includes(intent)) {
    return reply({ ok: false, message: t("admin.errors.badRequest") }, 400);
  }
  const target = getApiKeyServices().target;
  const session = sessionServices(secret);
  try {
    if (intent === "restore") {
      const item = await restoreItem(target, session, user, batch);
      const row = rowOf(item, locale);
      const edit = `/admin/${CONTENT_MODEL[item.kind].adminPath}/edit/${item.batch}`;
      return reply({ ok: true, message: t("admin.trash.restored", { name: row.title }), edit });
    }
    if ((await accessOf(user)).role !== "owner") return reply({ ok: false, message: t("admin.trash.ownerOnly") }, 403);
    const item = await deleteItemForever(target, session, batch);
    return reply({ ok: true, message: t("admin.trash.purged", { name: rowOf(item, locale).title }) });
  } catch (error) {
    if (error instanceof TrashNotFoundError) return reply({ ok: false, message: t("admin.trash.gone") }, 404);
    if (error instanceof TrashSlugTakenError) {
      const language = t(`admin.languages.inSentence.${error.locale}`);
      return reply({ ok: false, message: t("admin.trash.slugTaken", { slug: error.slug, language }) }, 409);
    }
    console.error(`[trash] ${intent} of ${batch} failed:`, error);
    return reply({ ok: false, message: t("admin.trash.failed") }, 500);
  }
}
