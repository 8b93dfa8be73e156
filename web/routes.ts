import { index, route, type RouteConfig } from "@react-router/dev/routes";
import { CONTENT_KIND_NAMES, CONTENT_MODEL, type ContentKindSpec } from "../model/model.ts";

/** The kinds of the content model with their descriptions, in the table's order (`model/model.ts`). */
const KINDS = CONTENT_KIND_NAMES.map((kind) => [kind, CONTENT_MODEL[kind] as ContentKindSpec] as const);

/**
 * Each kind's public pages (issue #27 item 1): `/<locale>/<publicPath>` (its list) and `…/:slug` (an item),
 * from the kind's own modules (`views`, with their default route ids) or the shared ones, which find their
 * kind by the URL's path and are mounted once per kind (ids `routes/public/kind-list-<kind>`, …).
 */
const publicKindRoutes = KINDS.flatMap(([kind, spec]) => [
  spec.views?.list
    ? route(spec.publicPath, spec.views.list)
    : route(spec.publicPath, "routes/public/kind-list.tsx", { id: `routes/public/kind-list-${kind}` }),
  spec.views?.item
    ? route(`${spec.publicPath}/:slug`, spec.views.item)
    : route(`${spec.publicPath}/:slug`, "routes/public/kind-item.tsx", { id: `routes/public/kind-item-${kind}` }),
]);

/** Each kind's admin pages: its list (`/admin/<adminPath>`), new item and edit form. */
const adminKindRoutes = KINDS.flatMap(([kind, spec]) => {
  const form = spec.views?.form ?? "routes/admin/kind-form.tsx";
  return [
    route(spec.adminPath, "routes/admin/items.tsx", { id: `routes/admin/items-${kind}` }),
    route(`${spec.adminPath}/new`, form, { id: `admin-${kind}-new` }),
    route(`${spec.adminPath}/edit/:id`, form, { id: `admin-${kind}-edit` }),
  ];
});

/**
 * Routes by audience (STYLE 3): public pages under a locale segment (spec §2), the admin (guarded in its
 * layout's loader), resource routes (images, sitemap, feeds, robots; the admin's format, preview and AI calls).
 * The content kinds' pages come from the kinds table, in its order.
 */
export default [
  index("routes/public/root-redirect.tsx"),
  route(":locale", "routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("about", "routes/public/about.tsx"),
    route("services", "routes/public/services.tsx"),
    ...publicKindRoutes,
    route("community", "routes/public/community.tsx"),
    route("partner", "routes/public/partner.tsx"),
    route("contact", "routes/public/contact.tsx"),
    route("privacy-policy", "routes/public/privacy-policy.tsx"),
    route("terms-of-use", "routes/public/terms-of-use.tsx"),
    route("login", "routes/public/login.tsx"),
    route("join", "routes/public/join.tsx"),
    route("*", "routes/public/not-found.tsx"),
  ]),
  route("admin", "routes/admin/layout.tsx", [
    index("routes/admin/dashboard.tsx"),
    ...adminKindRoutes,
    route("account", "routes/admin/account.tsx"),
    route("inbox", "routes/admin/inbox.tsx"),
    route("inbox/:kind/:id", "routes/admin/inbox-item.tsx"),
    route("team", "routes/admin/team-members.tsx"),
    route("media", "routes/admin/media.tsx"),
    route("trash", "routes/admin/trash.tsx"),
  ]),
  route("admin/media/api", "routes/resources/admin-media.ts"),
  route("admin/inbox/export.csv", "routes/resources/admin-inbox-export.ts"),
  route("admin/inbox/events", "routes/resources/admin-inbox-events.ts"),
  route("admin/logout", "routes/admin/logout.ts"),
  route("admin/locale", "routes/admin/locale.ts"),
  route("admin/format", "routes/resources/admin-format.ts"),
  route("admin/preview-html", "routes/resources/admin-preview-html.ts"),
  route("admin/preview-link", "routes/resources/admin-preview-link.ts"),
  route("admin/history", "routes/resources/admin-history.ts"),
  route("admin/autosave", "routes/resources/admin-autosave.ts"),
  route("admin/ai/draft", "routes/resources/ai-draft.ts"),
  route("admin/ai/image", "routes/resources/ai-image.ts"),
  route("admin/ai/translate", "routes/resources/ai-translate.ts"),
  route(":locale/rss.xml", "routes/resources/rss.ts"),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("sitemap/:file", "routes/resources/sitemap-part.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("media/:fileId", "routes/resources/media.ts"),
  route("healthz", "routes/resources/healthz.ts"),
  route("csp-report", "routes/resources/csp-report.ts"),
] satisfies RouteConfig;
