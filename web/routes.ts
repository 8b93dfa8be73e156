import { index, route, type RouteConfig } from "@react-router/dev/routes";

/**
 * Routes by audience (STYLE 3): public pages under a locale segment (spec §2), resource routes.
 */
export default [
  index("routes/public/root-redirect.tsx"),
  route(":locale", "routes/public/layout.tsx", [
    index("routes/public/home.tsx"),
    route("ventures", "routes/public/ventures.tsx"),
    route("ventures/:slug", "routes/public/venture.tsx"),
    route("blog", "routes/public/blog.tsx"),
    route("blog/:slug", "routes/public/post.tsx"),
    route("*", "routes/public/not-found.tsx"),
  ]),
  route("media/:fileId", "routes/resources/media.ts"),
] satisfies RouteConfig;
