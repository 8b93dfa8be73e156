/**
 * The admin's language, remembered per user in Appwrite's account preferences (issue #17 item 1): the key
 * `adminLocale` of the prefs object (`account.getPrefs` / `account.updatePrefs`, which replaces the whole
 * object, so the other keys are read first and kept). Written only by an explicit choice in the admin's
 * language switch; read at sign-in.
 */
import { createSessionServices, type AppwriteTarget } from "../../lib/appwrite/client.ts";
import { isContentLocale, type ContentLocale } from "../../model/locales.ts";

/** The languages the admin speaks: the locale table's (`model/locales.ts`). */
export type AdminLocale = ContentLocale;

/** The prefs key holding the admin's language. */
export const ADMIN_LOCALE_PREF = "adminLocale";

/** The admin language stored in a prefs object (`user.prefs`), or null when none or an unknown one is. */
export function adminLocaleOf(prefs: unknown): AdminLocale | null {
  const value = (prefs as Record<string, unknown> | null | undefined)?.[ADMIN_LOCALE_PREF];
  return isContentLocale(value) ? value : null;
}

/**
 * Stores `locale` as the signed-in user's admin language, keeping their other preferences.
 * @throws {AppwriteException} when Appwrite refuses (an expired session: 401) or fails.
 */
export async function saveAdminLocale(
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
  secret: string,
  locale: AdminLocale,
): Promise<void> {
  const { account } = createSessionServices(target, secret);
  const prefs = (await account.getPrefs()) as Record<string, unknown>;
  await account.updatePrefs({ prefs: { ...prefs, [ADMIN_LOCALE_PREF]: locale } });
}
