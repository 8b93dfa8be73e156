import { redirect } from "react-router";
import { saveAdminLocale } from "../../../server/auth/prefs.ts";
import { appwriteLocation } from "../../data/appwrite.server.ts";
import { localeCookie, requireUser, safeRedirect } from "../../data/session.server.ts";
import { isLocale } from "../../i18n/i18n.ts";
import type { Route } from "./+types/locale";

/**
 * The admin's language switch (issue #17 item 1): POST `locale` (`en` | `ar`) and `redirectTo` (a path under
 * `/admin`). The choice is remembered for the user in their Appwrite account prefs (with their own session:
 * `saveAdminLocale`) and for this browser in the `locale` cookie, then the page it was made on is shown again.
 * An unknown locale changes nothing. If Appwrite refuses the prefs, the switch still holds for this browser.
 */
export async function action({ request }: Route.ActionArgs) {
  const { secret } = await requireUser(request);
  const form = await request.formData();
  const locale = form.get("locale");
  const back = safeRedirect(form.get("redirectTo"));
  if (!isLocale(locale)) return redirect(back);
  try {
    await saveAdminLocale(appwriteLocation(), secret, locale);
  } catch (error) {
    console.warn(`[admin] could not remember the admin language in the account prefs: ${(error as Error).message}`);
  }
  return redirect(back, { headers: { "Set-Cookie": localeCookie(locale) } });
}

/** A GET (a typed address) goes to the dashboard. */
export function loader() {
  return redirect("/admin");
}
