/**
 * The answer to a save refused by an edit conflict (issue #16 item 5, issue #29 item 5): what the editor needs
 * to resolve it on the same page, without losing their input. Their version as stored now (the form values of
 * every language version, the loader's shape, so the page can show it beside the typed input and "Keep
 * theirs" can put it in the form), and the current `$updatedAt` of EVERY version of the item, not only of the
 * one whose check failed: a bilingual save checks the other versions first and the route's version last, so
 * an answer naming only the version that failed left the others' stale times in the form, and the next save
 * ("Overwrite theirs") was refused again on the next version. With all of them current, the overwrite passes
 * the first time.
 */
import { type EditConflictError } from "../../server/admin/content.ts";
import type { ContentKind } from "../../model/model.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { momentText } from "../i18n/history-dates.ts";
import type { Locale } from "../i18n/i18n.ts";
import { loadFormValues } from "./admin.server.ts";

/** What a 409 answer carries as `conflict` (read on the page by `conflictOf` and `conflictDetailsOf`). */
export interface ConflictAnswer {
  /** The route version's `$updatedAt` now: posted as `version` by the next save. */
  version: string | null;
  /** Each other language version's `$updatedAt` now (null when it does not exist), by locale. */
  otherVersions: Record<string, string | null>;
  /** Their item as stored now, as form values (`title`, `ar.title`, `slug`, …); null when it cannot be read. */
  theirs: Record<string, string> | null;
  /** The save intent of the refused save (the button pressed): "Overwrite theirs" posts it again. */
  intent: string;
}

/**
 * The form error of a conflict: "Not saved: changed by <name> at <date, time> since you opened it…" in the
 * admin's language, the time as a date in the site's time zone (`momentText`; default UTC), never raw ISO.
 */
export function conflictMessage(error: EditConflictError, locale: Locale, timeZone?: string): string {
  const { t } = getI18n(locale);
  return t("admin.lifecycle.conflict", {
    name: error.updatedBy ?? t("admin.lifecycle.someoneElse"),
    time: momentText(error.updatedAt, locale, timeZone),
  });
}

/**
 * The conflict answer of a refused save of item `id`, read as the user (`secret`): their version and every
 * version's current time. When the item cannot be read again (deleted meanwhile), `fallback`'s versions and no
 * `theirs` (the next save then answers what happened to it).
 * @param fallback the versions the refusal itself knows (the failed version's time, the others as posted).
 */
export async function conflictAnswer(
  secret: string,
  kind: ContentKind,
  id: string,
  intent: string,
  locale: Locale,
  fallback: { version: string | null; otherVersions: Record<string, string | null> },
): Promise<ConflictAnswer> {
  try {
    const current = await loadFormValues(secret, kind, id, locale);
    return {
      version: current.version,
      otherVersions: Object.fromEntries(current.others.map((o) => [o.locale, o.version])),
      theirs: current.values,
      intent,
    };
  } catch (error) {
    console.warn(`[admin] reading ${kind} ${id} after an edit conflict failed:`, error);
    return { ...fallback, theirs: null, intent };
  }
}
