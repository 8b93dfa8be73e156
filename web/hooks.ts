import { useMemo, useSyncExternalStore } from "react";
import { useMatches, useParams, useRouteLoaderData } from "react-router";
import { toLocale, type Locale } from "./i18n/i18n.ts";
import { translatorOf, type Translator } from "./i18n/t.ts";

/**
 * The page's locale: the `:locale` segment, or in the admin (no segment) the locale its layout chose from the
 * visitor's `locale` cookie or Accept-Language, or, when the layout has no data (its error screen after a failed
 * POST), the same choice the root loader made; `en` otherwise.
 */
export function useLocale(): Locale {
  const segment = useParams().locale;
  const admin = useRouteLoaderData<{ locale?: string }>("routes/admin/layout");
  const root = useRouteLoaderData<{ locale?: string }>("root");
  return toLocale(segment ?? admin?.locale ?? root?.locale);
}

const noSubscription = () => () => {};

/** False while rendering on the server and hydrating, true once the page runs with JavaScript. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * The page's `t()`: messages from the loader data of the matched routes (the page's own namespaces, then the
 * root's shell texts), in the page's language (web/i18n/t.ts).
 */
export function useTranslation(): Translator {
  const matches = useMatches();
  return useMemo(() => translatorOf(matches), [matches]);
}

/**
 * A list of texts from the locale files (arrays of strings or objects); empty when the key is not an array,
 * so a missing translation shows nothing rather than breaking the page.
 */
export function useTextList<T>(key: string): T[] {
  return useTranslation().list<T>(key);
}
