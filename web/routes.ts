import { index, route, type RouteConfig } from "@react-router/dev/routes";

/**
 * Routes by audience (STYLE 3): public pages under a locale segment (spec §2), resource routes (images,
 * sitemap, feeds, robots).
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
    route("*", "routes/public/not-found.tsx"),
  ]),
  route(":locale/rss.xml", "routes/resources/rss.ts"),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("media/:fileId", "routes/resources/media.ts"),
] satisfies RouteConfig;
