/**
 * Machine-readable outputs for search engines and readers (issue #4): the sitemap with both locales of
 * every page, venture and post (with hreflang alternates), as an index of parts of at most 50,000 URLs
 * (issue #18 item 3), and an RSS 2.0 feed of the blog per locale (its 50 newest posts). Both
 * list only what a guest may read (SECURITY C55).
 */
import {
  CONTENT_KIND_NAMES,
  CONTENT_MODEL,
  descriptionField,
  type ContentKind,
  type ContentKindSpec,
} from "../../model/model.ts";
import { countRows, readLatestVersions, readVersionWindow } from "../../lib/appwrite/content-pages.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../i18n/i18n.ts";
import { absoluteUrl } from "../seo.ts";
import { navOf } from "../components/nav.ts";
import { getPublicServices, guestCounts, withBackend } from "./appwrite.server.ts";

/** Escapes text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The `<url>` of `path` in `locale`, naming the versions in `locales` as hreflang alternates, and
 * `x-default`: English when the item has it (issue #15 item 3: only locales that exist).
 */
function sitemapEntry(
  origin: string,
  path: string,
  lastmod: string | undefined,
  locales: readonly Locale[],
  locale: Locale,
): string {
  const fallback = locales.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : locales[0]!;
  const alternates = locales
    .map(
      (l) => `<xhtml:link rel="alternate" hreflang="${l}" href="${escapeXml(absoluteUrl(origin, `/${l}${path}`))}"/>`,
    )
    .concat(
      `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(absoluteUrl(origin, `/${fallback}${path}`))}"/>`,
    );
  return [
    "<url>",
    `<loc>${escapeXml(absoluteUrl(origin, `/${locale}${path}`))}</loc>`,
    lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : "",
    ...alternates,
    "</url>",
  ].join("");
}

/** Most URLs one sitemap file may list (sitemaps.org: 50,000 URLs and 50 MB uncompressed). */
export const SITEMAP_PART_URLS = 50_000;

/** The kinds whose versions are pages of their own, in the sitemap's order: every kind of the table. */
const SITEMAP_KINDS = CONTENT_KIND_NAMES;

/**
 * Paths of the fixed public pages, relative to the locale root (spec §2): the navigation's (each kind's list
 * among them, `navOf`), then the legal pages.
 */
export function staticPages(): string[] {
  const lists = SITEMAP_KINDS.map((kind) => CONTENT_MODEL[kind].publicPath);
  return [...navOf(lists).map((item) => item.path), "/privacy-policy", "/terms-of-use"];
}

/**
 * How many URLs the sitemap lists, by source: the static pages in every locale, then one URL per readable
 * language version of each kind (every version is a page: `/<locale>/<path>/<slug>`).
 */
async function sitemapCounts(): Promise<number[]> {
  const services = getPublicServices();
  const kinds = await withBackend(() =>
    Promise.all(SITEMAP_KINDS.map((kind) => countRows(services, kind, [], undefined, guestCounts))),
  );
  return [staticPages().length * LOCALES.length, ...kinds];
}

/** The number of sitemap parts (at least 1) for `partUrls` URLs a part. */
export async function sitemapPartCount(partUrls = SITEMAP_PART_URLS): Promise<number> {
  const total = (await sitemapCounts()).reduce((a, b) => a + b, 0);
  return Math.max(1, Math.ceil(total / partUrls));
}

/** The sitemap index (`/sitemap.xml`): one `<sitemap>` per part, `/sitemap/<n>.xml` from 1. */
export async function buildSitemapIndex(origin: string, partUrls = SITEMAP_PART_URLS): Promise<string> {
  const parts = await sitemapPartCount(partUrls);
  const entries = Array.from(
    { length: parts },
    (_, i) => `<sitemap><loc>${escapeXml(absoluteUrl(origin, `/sitemap/${i + 1}.xml`))}</loc></sitemap>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    "</sitemapindex>",
    "",
  ].join("\n");
}

/**
 * Part `part` (from 1) of the sitemap (sitemaps.org 0.9 with xhtml alternates), or null past the last: URLs
 * `(part-1)·partUrls` to `part·partUrls` of the static pages, then every readable venture and post version
 * in slug order (read by offset then cursor, `readVersionWindow`), each naming its item's other versions.
 */
export async function buildSitemapPart(
  origin: string,
  part: number,
  partUrls = SITEMAP_PART_URLS,
): Promise<string | null> {
  const counts = await sitemapCounts();
  const total = counts.reduce((a, b) => a + b, 0);
  const from = (part - 1) * partUrls;
  if (part < 1 || (from >= total && part > 1)) return null;
  const to = Math.min(total, from + partUrls);
  const services = getPublicServices();
  const entries: string[] = [];
  let base = 0;
  for (const [i, count] of counts.entries()) {
    const start = Math.max(from, base) - base;
    const end = Math.min(to, base + count) - base;
    base += count;
    if (end <= start) continue;
    if (i === 0) {
      for (let n = start; n < end; n++) {
        const path = staticPages()[Math.floor(n / LOCALES.length)]!;
        entries.push(sitemapEntry(origin, path, undefined, LOCALES, LOCALES[n % LOCALES.length]!));
      }
      continue;
    }
    const kind = SITEMAP_KINDS[i - 1]!;
    const publicPath = CONTENT_MODEL[kind].publicPath;
    const versions = await withBackend(() => readVersionWindow(services, kind, start, end - start));
    for (const v of versions) {
      entries.push(
        sitemapEntry(origin, `/${publicPath}/${encodeURIComponent(v.slug)}`, v.updatedAt, v.locales, v.locale),
      );
    }
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    "</urlset>",
    "",
  ].join("\n");
}

/** The kinds whose items each locale's RSS feed carries (`feed: true`), in the table's order. */
const FEED_KINDS = CONTENT_KIND_NAMES.filter((kind) => (CONTENT_MODEL[kind] as ContentKindSpec).feed === true);
/** Items an RSS feed carries: the newest posts of its locale. */
export const RSS_ITEMS = 50;

/** The `<item>`s of `kind`'s newest versions in `locale`, with their date in ms for the feed's order. */
async function feedItems(origin: string, kind: ContentKind, locale: Locale): Promise<{ at: number; xml: string }[]> {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  const description = descriptionField(kind);
  const versions = await withBackend(() => readLatestVersions(getPublicServices(), kind, locale, RSS_ITEMS));
  return versions.map((version) => {
    const v = version as unknown as Record<string, string>;
    const link = absoluteUrl(origin, `/${locale}/${spec.publicPath}/${encodeURIComponent(v.slug!)}`);
    const at = new Date(v[spec.order]!);
    const xml = [
      "<item>",
      `<title>${escapeXml(v[spec.title]!)}</title>`,
      `<link>${escapeXml(link)}</link>`,
      `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
      description ? `<description>${escapeXml(v[description] ?? "")}</description>` : "",
      spec.author ? `<dc:creator>${escapeXml(v[spec.author] ?? "")}</dc:creator>` : "",
      `<pubDate>${at.toUTCString()}</pubDate>`,
      "</item>",
    ].join("");
    return { at: at.getTime(), xml };
  });
}

/**
 * The RSS 2.0 feed in `locale` (channel texts in that language, links to that locale's pages) of the kinds
 * with `feed: true` (the blog): the 50 newest items that have a version in `locale`, in that version
 * (`/ar/rss.xml` carries the Arabic items), newest first.
 */
export async function buildRss(origin: string, locale: Locale): Promise<string> {
  const { t } = getI18n(locale);
  const perKind = await Promise.all(FEED_KINDS.map((kind) => feedItems(origin, kind, locale)));
  const items = perKind
    .flat()
    .sort((a, b) => b.at - a.at)
    .slice(0, RSS_ITEMS)
    .map((item) => item.xml);
  const self = absoluteUrl(origin, `/${locale}/rss.xml`);
  const channel = FEED_KINDS[0] ? `/${CONTENT_MODEL[FEED_KINDS[0]].publicPath}` : "";
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "<channel>",
    `<title>${escapeXml(t("seo.feedTitle", { site: t("site.name") }))}</title>`,
    `<link>${escapeXml(absoluteUrl(origin, `/${locale}${channel}`))}</link>`,
    `<description>${escapeXml(t("seo.feedDescription"))}</description>`,
    `<language>${locale}</language>`,
    `<atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}
