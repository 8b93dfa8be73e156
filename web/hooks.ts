import { useParams } from "react-router";
import { toLocale, type Locale } from "./i18n/i18n.ts";

/** The page's locale from the `:locale` segment (`en` when absent or unsupported). */
export function useLocale(): Locale {
  return toLocale(useParams().locale);
}
