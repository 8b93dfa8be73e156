/**
 * The server half of an edit page's history (issue #16 item 4): the revisions of an item the signed-in user
 * may read, with the current version's text fields to compare them with, and restoring one. Everything is
 * read and written with the user's session, so Appwrite's permissions decide (a revision carries the item's
 * editors' permissions: `lib/publish/history.ts`).
 */
import { data, redirect } from "react-router";
import { HtmlBoundsError } from "../../lib/html/bounds.ts";
import {
  RevisionInvalidError,
  RevisionMismatchError,
  RevisionStore,
  restorableFields,
} from "../../lib/publish/history.ts";
import { restoreRevision } from "../../lib/publish/writer.ts";
import { submissionErrorMessage } from "../../server/admin/content.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import type { SessionServices } from "../../lib/appwrite/client.ts";
import { bodyBoundsMessage, getItem, sessionServices } from "./admin.server.ts";
import { issueText, submissionText } from "./admin-errors.server.ts";
import { getApiKeyServices } from "./appwrite.server.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { preferredLocale, requireUser } from "./session.server.ts";
import { setFlash } from "./admin-flash.server.ts";
import { documentLocale } from "./admin-versions.server.ts";

/** One revision as the edit page shows it: when and by whom it was saved, and its text fields as strings. */
export interface HistoryEntry {
  id: string;
  savedAt: string;
  savedBy: string | null;
  fields: Record<string, string>;
}

/**
 * What the history panel loads: the revisions, newest first, and the current version's text fields; or, when
 * they cannot be read, `error` (the panel says so, the rest of the edit page keeps working).
 */
export type HistoryData = { revisions: HistoryEntry[]; current: Record<string, string> } | { error: string };

/** An Appwrite id: at most 36 characters of `a-z A-Z 0-9 . _ -`, not starting with a special character. */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/;

/** The kind and item id `request` names, or a 400 answer in the admin's language. */
function itemOf(request: Request, kind: unknown, id: unknown): { kind: ContentKind; id: string } {
  if (!CONTENT_KIND_NAMES.includes(kind as ContentKind) || typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw data<HistoryData>({ error: getI18n(preferredLocale(request)).t("admin.errors.badRequest") }, { status: 400 });
  }
  return { kind: kind as ContentKind, id };
}

/** `fields`' restorable fields as strings (null as ""): what the diff compares. */
function textFields(kind: ContentKind, fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(restorableFields(kind, fields)).map(([name, value]) => [name, value == null ? "" : String(value)]),
  );
}

/**
 * GET `?kind=&id=`: the item's history for the signed-in user. `{error}` with 400 for a malformed request,
 * 404 when the item is missing or not readable by the user, 502 when Appwrite cannot be read.
 */
export async function loadHistory(request: Request) {
  const { secret } = await requireUser(request);
  const url = new URL(request.url);
  const { kind, id } = itemOf(request, url.searchParams.get("kind"), url.searchParams.get("id"));
  const session = sessionServices(secret);
  try {
    return await historyOf(session, kind, id);
  } catch (error) {
    if (error instanceof Response || (error as { type?: unknown }).type === "DataWithResponseInit") throw error;
    const message = error instanceof Error ? error.message : String(error);
    console.warn(`[history] ${kind} ${id}: ${message}`);
    return data<HistoryData>({ error: message }, { status: 502 });
  }
}

async function historyOf(session: SessionServices, kind: ContentKind, id: string) {
  const doc = await getItem(session, kind, id);
  if (!doc) return data<HistoryData>({ error: `Failed to load ${kind} data.` }, { status: 404 });
  const revisions = await new RevisionStore(session.client).list(doc);
  return {
    revisions: revisions.map((r) => ({
      id: r.id,
      savedAt: r.savedAt,
      savedBy: r.savedBy,
      fields: textFields(kind, r.fields),
    })),
    current: textFields(kind, doc),
  } satisfies HistoryData;
}

/**
 * POST `kind`, `id`, `revisionId` (and `editId`, the edit page's document: the item's other language version
 * when `id` is a translation's): restores that revision as the signed-in user (through the one writer, so the
 * version it replaces is kept in turn), then back to the edit page, where the admin's flash at the top says
 * which version of which item came back and from when (issue #29 item 4); when it cannot, back with
 * `?restoreFailed=<why>`, in the admin's language when it is a field the save's rules refuse or a body over a
 * bound (SECURITY C69). A native form post, so the edit page loads afresh.
 */
export async function restoreFromHistory(request: Request): Promise<never> {
  const { secret, user } = await requireUser(request);
  const form = await request.formData();
  const { kind, id } = itemOf(request, form.get("kind"), form.get("id"));
  const { id: editId } = itemOf(request, kind, String(form.get("editId") ?? "") || id);
  const revisionId = String(form.get("revisionId") ?? "");
  const page = `/admin/${CONTENT_MODEL[kind].adminPath}/edit/${encodeURIComponent(editId)}`;
  const session = sessionServices(secret);
  try {
    if (!ID_PATTERN.test(revisionId)) throw new RevisionMismatchError(revisionId, id);
    const revision = await new RevisionStore(session.client).get(revisionId);
    // The new revision is written with the key, like a save's (`updateItem`); the restore itself with the session.
    const restored = await restoreRevision(
      session.tablesDB,
      kind,
      id,
      revisionId,
      user.name,
      getApiKeyServices().client,
    );
    const flash = {
      event: "restored",
      name: String(restored[CONTENT_MODEL[kind].title] ?? ""),
      date: revision.savedAt,
      language: documentLocale(restored),
    } as const;
    throw redirect(page, { headers: { "Set-Cookie": await setFlash(request, flash) } });
  } catch (error) {
    if (error instanceof Response) throw error;
    throw redirect(`${page}?restoreFailed=${encodeURIComponent(restoreFailure(request, kind, error))}`);
  }
}

/**
 * Why a restore failed, for `?restoreFailed=`, in the admin's language: a revision that is not the item's, the
 * revision's fields a save would refuse, a body over a bound, or the save's own error (spec §8).
 */
function restoreFailure(request: Request, kind: ContentKind, error: unknown): string {
  const locale = preferredLocale(request);
  if (error instanceof RevisionInvalidError) {
    return error.issues.map((i) => issueText(locale, kind, i.field, i.issue, i.value)).join(" ");
  }
  if (error instanceof HtmlBoundsError) return bodyBoundsMessage(locale, error.violation);
  if (error instanceof RevisionMismatchError) return getI18n(locale).t("admin.history.notAVersion");
  return submissionText(locale, submissionErrorMessage(error)).text;
}
