import { redirect } from "react-router";
import { DEFAULT_LOCALE } from "../../i18n/i18n.ts";

/** `/` redirects to the default locale (spec §2). */
export function loader() {
  return redirect(`/${DEFAULT_LOCALE}`);
}
