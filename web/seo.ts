/**
 * Per-page SEO tags (issue #4): title, description, canonical URL, hreflang alternates (en, ar, x-default),
 * Open Graph and Twitter cards, and optional JSON-LD. Absolute URLs use the origin the locale layout's
 * loader found for the request.
 */
import type { MetaDescriptor } from "react-router";
import { DEFAULT_LOCALE, LOCALES, ogLocaleOf, switchLocalePath, toLocale, type Locale } from "./i18n/i18n.ts";
import { translatorOf } from "./i18n/t.ts";

export interface PageSeo {
  /** The page's own title; the site name is appended (the home page passes `full: true` to use it as is). */
  title: string;
  full?: boolean;
  description: string;
  /** An image URL, absolute or site-relative. */
  image?: string | null;
  type?: "website" | "article";
  jsonLd?: Record<string, unknown>;
  /**
   * The locales the page's item really exists in (a venture or post, issue #15 item 3): `hreflang`
   * alternates name only these, `x-default` the English one when it exists. Absent: every locale.
   */
  locales?: readonly Locale[];
  /** A preview of an item that is not public (issue #16): `robots: noindex, nofollow`, no structured data. */
  noindex?: boolean;
  /**
   * A numbered page of a list (issue #18 item 3): `search` (`?page=2`, "" for page 1) is part of its canonical
   * URL and its alternates; `prev`/`next` are the site paths of the pages either side (`<link rel="prev|next">`).
   */
  page?: { search: string; prev?: string; next?: string };
}

/** What a route's `meta` function receives that this module needs. */
export interface MetaContext {
  location: { pathname: string };
  params: { locale?: string };
  matches: readonly unknown[];
}

/** The site origin (`https://host`) recorded by the locale layout's loader, or "" when unknown. */
export function originFrom(matches: readonly unknown[]): string {
  for (const match of matches) {
    const data = (match as { data?: { origin?: unknown } } | undefined)?.data;
    if (typeof data?.origin === "string") return data.origin;
  }
  return "";
}

/** `origin + path` without a trailing slash (the home page of a locale is `/en`, not `/en/`). */
export function absoluteUrl(origin: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${origin}${path.length > 1 ? path.replace(/\/+$/, "") : path}`;
}

/** The meta descriptors of one page in the locale of its URL. */
export function pageMeta(context: MetaContext, seo: PageSeo): MetaDescriptor[] {
  const locale = toLocale(context.params.locale);
  const { t } = translatorOf(context.matches);
  const origin = originFrom(context.matches);
  const title = seo.full ? seo.title : `${seo.title} | ${t("site.name")}`;
  const search = seo.page?.search ?? "";
  const url = absoluteUrl(origin, context.location.pathname) + search;
  const image = seo.image ? absoluteUrl(origin, seo.image) : null;
  const alternates = LOCALES.filter((l) => !seo.locales || seo.locales.includes(l));
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: seo.description },
    { tagName: "link", rel: "canonical", href: url },
    ...alternates.map((l) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: l,
      href: absoluteUrl(origin, switchLocalePath(context.location.pathname, l)) + search,
    })),
    {
      tagName: "link",
      rel: "alternate",
      hrefLang: "x-default",
      href:
        absoluteUrl(
          origin,
          switchLocalePath(
            context.location.pathname,
            alternates.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : alternates[0]!,
          ),
        ) + search,
    },
    ...(["prev", "next"] as const).flatMap((rel) => {
      const path = seo.page?.[rel];
      return path ? [{ tagName: "link", rel, href: absoluteUrl(origin, path) }] : [];
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: t("seo.feedTitle", { site: t("site.name") }),
      href: absoluteUrl(origin, `/${locale}/rss.xml`),
    },
    { property: "og:type", content: seo.type ?? "website" },
    { property: "og:site_name", content: t("site.name") },
    { property: "og:title", content: title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: url },
    { property: "og:locale", content: ogLocaleOf(locale) },
    ...LOCALES.filter((l) => l !== locale).map((l) => ({ property: "og:locale:alternate", content: ogLocaleOf(l) })),
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: seo.description },
  ];
  if (image) tags.push({ property: "og:image", content: image }, { name: "twitter:image", content: image });
  if (seo.noindex) tags.push({ name: "robots", content: "noindex, nofollow" });
  else if (seo.jsonLd) tags.push({ "script:ld+json": seo.jsonLd });
  return tags;
}
