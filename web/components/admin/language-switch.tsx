import { Form, useLocation } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { LOCALES } from "../../i18n/i18n.ts";
import { localeSpec } from "../../../model/locales.ts";

/**
 * The admin's language switch (issue #17 item 1): English | العربية as two submit buttons of one form posted
 * to `/admin/locale` (works without JavaScript; Tab and Enter/Space reach and press them), the current one
 * marked `aria-pressed`. The choice is stored in the user's account prefs; the same page comes back in it.
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { pathname, search } = useLocation();
  return (
    <Form method="post" action="/admin/locale" className="px-3 pt-4">
      <input type="hidden" name="redirectTo" value={pathname + search} />
      <div role="group" aria-label={t("admin.nav.language")} className="flex items-center gap-1 text-sm">
        {LOCALES.map((l, i) => (
          <span key={l} className="flex items-center gap-1">
            {i > 0 && (
              <span aria-hidden className="text-mist">
                |
              </span>
            )}
            <button
              type="submit"
              name="locale"
              value={l}
              lang={l}
              aria-pressed={l === locale}
              className={`rounded px-2 py-1 ${l === locale ? "font-semibold text-gold" : "text-mist hover:text-white"}`}
            >
              {localeSpec(l).label /* each language named in itself */}
            </button>
          </span>
        ))}
      </div>
    </Form>
  );
}
