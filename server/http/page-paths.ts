/**
 * The site's URL rules for public pages, in one place for the cached path, the render path and the query
 * canonicalization (`cached-pages.ts`, `public-build.ts`, `serve-site.ts`).
 */

/**
 * A public page's path: a locale-like first segment (two lowercase letters), then a path with no dot anywhere
 * (no resource such as `/en/rss.xml`, no `*.data` request) and no query.
 */
export const PAGE_PATH = /^\/[a-z]{2}(?:\/[^.?]*)?$/;

/**
 * Pages that read their own query, set cookies or depend on the visitor, so are never cached nor have their
 * query reduced: login (`?redirectTo=`) and join (an invitation, issue #28).
 */
export const PRIVATE_PAGE = /^\/[a-z]{2}\/(?:login|join)\/?$/;
