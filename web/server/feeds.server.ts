/**
 * Machine-readable outputs for search engines and readers (issue #4): the sitemap with both locales of
 * every page, venture and post (with hreflang alternates), and an RSS 2.0 feed of the blog per locale. Both
 * list only what a guest may read (SECURITY C55).
 */
import { CONTENT_MODEL } from "../../schemas/model.ts";
import { listLocalized } from "../../lib/appwrite/content-store.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../i18n/i18n.ts";
import { STATIC_PAGES, absoluteUrl } from "../seo.ts";
import { getPublicServices, withBackend } from "./appwrite.server.ts";

/** Escapes text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The `<url>` of `path` in each of `locales` (default: every locale), each naming the others as hreflang
 * alternates, and `x-default`: English when the item has it (issue #15 item 3: only locales that exist).
 */
function sitemapEntry(origin: string, path: string, lastmod?: string, locales: readonly Locale[] = LOCALES): string {
  const fallback = locales.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : locales[0]!;
  const alternates = locales
    .map(
      (l) => `<xhtml:link rel="alternate" hreflang="${l}" href="${escapeXml(absoluteUrl(origin, `/${l}${path}`))}"/>`,
    )
    .concat(
      `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(absoluteUrl(origin, `/${fallback}${path}`))}"/>`,
    );
  return locales
    .map((locale) =>
      [
        "<url>",
        `<loc>${escapeXml(absoluteUrl(origin, `/${locale}${path}`))}</loc>`,
        lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : "",
        ...alternates,
        "</url>",
      ].join(""),
    )
    .join("\n");
}

/** The sitemap (sitemaps.org 0.9 with xhtml alternates) for `origin`. */
export async function buildSitemap(origin: string): Promise<string> {
  const services = getPublicServices();
  const [ventures, posts] = await withBackend(() =>
    Promise.all([listLocalized(services, "venture", DEFAULT_LOCALE), listLocalized(services, "post", DEFAULT_LOCALE)]),
  );
  const entries = [
    ...STATIC_PAGES.map((path) => sitemapEntry(origin, path)),
    ...ventures.map((v) => sitemapEntry(origin, `/ventures/${encodeURIComponent(v.slug)}`, v.$updatedAt, v.locales)),
    ...posts.map((p) => sitemapEntry(origin, `/blog/${encodeURIComponent(p.slug)}`, p.$updatedAt, p.locales)),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    "</urlset>",
    "",
  ].join("\n");
}

const POST = CONTENT_MODEL.post;

/**
 * The blog's RSS 2.0 feed in `locale` (channel texts in that language, links to that locale's pages): the
 * 50 newest posts that have a version in `locale`, in that version (`/ar/rss.xml` carries the Arabic items).
 */
export async function buildRss(origin: string, locale: Locale): Promise<string> {
  const { t } = getI18n(locale);
  const localized = await withBackend(() => listLocalized(getPublicServices(), "post", locale, 50));
  const posts = localized.filter((p) => p.locale === locale);
  const self = absoluteUrl(origin, `/${locale}/rss.xml`);
  const items = posts.map((p) => {
    const link = absoluteUrl(origin, `/${locale}/blog/${encodeURIComponent(p.slug)}`);
    return [
      "<item>",
      `<title>${escapeXml(p.title)}</title>`,
      `<link>${escapeXml(link)}</link>`,
      `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `<description>${escapeXml(p.excerpt)}</description>`,
      `<dc:creator>${escapeXml(p[POST.author])}</dc:creator>`,
      `<pubDate>${new Date(p[POST.order]).toUTCString()}</pubDate>`,
      "</item>",
    ].join("");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "<channel>",
    `<title>${escapeXml(t("seo.feedTitle", { site: t("site.name") }))}</title>`,
    `<link>${escapeXml(absoluteUrl(origin, `/${locale}/blog`))}</link>`,
    `<description>${escapeXml(t("seo.feedDescription"))}</description>`,
    `<language>${locale}</language>`,
    `<atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}
