import { index, route, type RouteConfig } from "@react-router/dev/routes";

/** The peer's routes: a locale layout and one page route for every captured page under it. */
export default [
  index("routes/empty.tsx"),
  route(":locale", "routes/locale.tsx", [index("routes/page.tsx", { id: "home" }), route("*", "routes/page.tsx")]),
] satisfies RouteConfig;
