import { useLocale, useTranslation } from "../hooks.ts";
import { directionOf, type Locale } from "../i18n/i18n.ts";

/**
 * The `lang`/`dir` of content shown in `version` on a page in another language (issue #15 item 3: a missing
 * version falls back to the other one, marked so screen readers and the browser's bidi use the right
 * language); nothing when the version is the page's own.
 */
export function versionAttributes(version: Locale, page: Locale): { lang?: Locale; dir?: "ltr" | "rtl" } {
  return version === page ? {} : { lang: version, dir: directionOf(version) };
}

/**
 * The short notice, in the page's language, that an item is shown in the other language ("هذا المقال متاح
 * بالإنجليزية فقط"); nothing when `version` is the page's locale. `noun`: the kind's public path, whose messages
 * (`<noun>.onlyIn.<locale>`) word it (`blog`, `ventures`).
 */
export function VersionNotice({ version, noun, className }: { version: Locale; noun: string; className?: string }) {
  const { t } = useTranslation();
  const page = useLocale();
  if (version === page) return null;
  return (
    <p
      className={className ?? "mt-6 rounded-xl border border-line bg-panel px-4 py-3 text-sm text-mist"}
      role="note"
      lang={page}
      dir={directionOf(page)}
    >
      {t(`${noun}.onlyIn.${version}`)}
    </p>
  );
}
