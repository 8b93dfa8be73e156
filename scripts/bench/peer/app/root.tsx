/**
 * The peer's document: the captured page's `<head>` children (meta, the inline CSS, JSON-LD) and its
 * `<body>`'s attributes, with React Router's `<Links>`, `<Scripts>` and `<ScrollRestoration>` as any
 * framework-mode app has them. The loader answers the project's root loader data from memory.
 */
import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "react-router";
import captured from "virtual:captured";
import { renderNode } from "./tree.tsx";

/** The captured page of a URL path (404 when none was captured). */
export function pageOf(pathname: string) {
  const page = captured.pages[pathname];
  if (!page) throw new Response("Not captured", { status: 404 });
  return page;
}

export function loader({ request }: { request: Request }) {
  return pageOf(new URL(request.url).pathname).data.root;
}

export function Layout({ children }: { children: ReactNode }) {
  const page = pageOf(useLocation().pathname);
  return (
    <html {...page.htmlProps}>
      <head>
        <Meta />
        {page.head.map(renderNode)}
        <Links />
      </head>
      <body {...page.bodyProps}>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
