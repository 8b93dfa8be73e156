import { index, route, type RouteConfig } from "@react-router/dev/routes";

/**
 * Routes by audience (STYLE 3): public pages under a locale segment (spec §2), the admin (guarded in its
 * layout's loader), resource routes (images, sitemap, feeds, robots; the admin's format, preview and AI calls).
 */
export default [
  index("routes/public/root-redirect.tsx"),
  route(":locale", "routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("about", "routes/public/about.tsx"),
    route("services", "routes/public/services.tsx"),
    route("ventures", "routes/public/ventures.tsx"),
    route("ventures/:slug", "routes/public/venture.tsx"),
    route("blog", "routes/public/blog.tsx"),
    route("blog/:slug", "routes/public/post.tsx"),
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
    route("ventures", "routes/admin/ventures.tsx"),
    route("ventures/new", "routes/admin/venture-form.tsx", { id: "admin-venture-new" }),
    route("ventures/edit/:id", "routes/admin/venture-form.tsx", { id: "admin-venture-edit" }),
    route("blog", "routes/admin/blog.tsx"),
    route("blog/new", "routes/admin/post-form.tsx", { id: "admin-post-new" }),
    route("blog/edit/:id", "routes/admin/post-form.tsx", { id: "admin-post-edit" }),
    route("account", "routes/admin/account.tsx"),
    route("team", "routes/admin/team.tsx"),
  ]),
  route("admin/logout", "routes/admin/logout.ts"),
  route("admin/locale", "routes/admin/locale.ts"),
  route("admin/format", "routes/resources/admin-format.ts"),
  route("admin/preview-html", "routes/resources/admin-preview-html.ts"),
  route("admin/preview-link", "routes/resources/admin-preview-link.ts"),
  route("admin/history", "routes/resources/admin-history.ts"),
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
