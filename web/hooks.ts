import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useRouteLoaderData } from "react-router";
import { toLocale, type Locale } from "./i18n/i18n.ts";

/**
 * The page's locale: the `:locale` segment, or in the admin (no segment) the locale its layout chose from the
 * visitor's `locale` cookie or Accept-Language; `en` otherwise.
 */
export function useLocale(): Locale {
  const segment = useParams().locale;
  const admin = useRouteLoaderData<{ locale?: string }>("routes/admin/layout");
  return toLocale(segment ?? admin?.locale);
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
 * A list of texts from the locale files (arrays of strings or objects); empty when the key is not an array,
 * so a missing translation shows nothing rather than breaking the page.
 */
export function useTextList<T>(key: string): T[] {
  const { t } = useTranslation();
  const value: unknown = t(key, { returnObjects: true });
  return Array.isArray(value) ? (value as T[]) : [];
}
