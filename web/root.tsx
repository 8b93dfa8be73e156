import {
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  type LinksFunction,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import stylesheet from "./app.css?url";
import { ErrorView } from "./components/error-view.tsx";
import { FONTS_LATER_SCRIPT, HydrationScripts } from "./components/hydration-scripts.tsx";
import { useLocale } from "./hooks.ts";
import { useNonce } from "./nonce.ts";
import { useStylesheet } from "./stylesheet.ts";
import { DEFAULT_LOCALE, directionOf, isLocale } from "./i18n/i18n.ts";
import { SHELL_NAMESPACES, messagesFor } from "./i18n/catalog.server.ts";
import { preferredLocale } from "./data/session.server.ts";
import type { Route } from "./+types/root";

/**
 * The built site inlines its stylesheet (Layout); the development server links it, so that Vite can reload it
 * in place. `precedence` makes React put it first in <head>.
 */
export const links: LinksFunction = () => [
  ...(import.meta.env.DEV ? [{ rel: "stylesheet", href: stylesheet, precedence: "default" }] : []),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * The shell's texts in the page's language (issue 18: messages travel as data, only the page's language;
 * each page's loader adds its own namespaces). The locale is the `:locale` segment, or for the admin (no
 * segment) the visitor's preferred one, as the admin layout chooses it; an unknown segment (a 404) gets the
 * default.
 */
export function loader({ params, request }: Route.LoaderArgs) {
  const locale = isLocale(params.locale)
    ? params.locale
    : params.locale === undefined
      ? preferredLocale(request)
      : DEFAULT_LOCALE;
  return { locale, messages: messagesFor(locale, SHELL_NAMESPACES) };
}

/** The shell's texts change only with the language (the admin's may change with its cookie, after a post). */
export function shouldRevalidate({ currentParams, nextParams, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentParams.locale !== nextParams.locale || (nextParams.locale === undefined && defaultShouldRevalidate);
}

/**
 * The document: `<html lang dir>` from the locale segment, or the admin's preferred locale (spec §1: Arabic is
 * right-to-left). No page preloads a font: a script at the top of the head sets `fonts-later` on <html>, which
 * keeps every web face out of the stylesheet's font stacks until the loader (HydrationScripts) sees the page's
 * first paint, or its hero picture's; until then text is set in metric-matched fallbacks, so the swap moves
 * nothing. Lighthouse counts every request that ends before the observed paint in LCP, and the Arabic faces
 * (49 kB of Kufi, 68 kB of Naskh on a post) were most of the Arabic pages' LCP (docs/decisions/0018; Inter
 * already went unpreloaded for that reason, 0010). Without JavaScript the class is never set.
 *
 * The stylesheet is inlined in a `<style>` allowed by this response's CSP nonce (issue 18 item 6: a linked
 * one cost the first paint a round trip). Only the server has its text and nonce: the browser hydrates the
 * element as it is (React compares neither `dangerouslySetInnerHTML` nor, with `suppressHydrationWarning`,
 * its attributes) and keeps it across client navigations, since the document's head stays.
 */
export function Layout({ children }: { children: React.ReactNode }) {
  const locale = useLocale();
  const nonce = useNonce();
  const css = useStylesheet();
  return (
    <html lang={locale} dir={directionOf(locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        {!import.meta.env.DEV && (
          <style
            nonce={nonce}
            data-href={stylesheet}
            dangerouslySetInnerHTML={{ __html: css }}
            suppressHydrationWarning
          />
        )}
        {/* Before the body is parsed: until the page has painted, no text names a web font (decision 0018). */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: FONTS_LATER_SCRIPT }} suppressHydrationWarning />
        <Meta />
        {/* A linked stylesheet (the development server's) is allowed by `style-src 'self'`; browsers keep a link's nonce in the DOM
            (they hide only scripts'), so a nonce here would not hydrate. */}
        <Links nonce="" />
      </head>
      <body className="min-h-screen antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <HydrationScripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Errors outside the locale layout (its own boundary handles the pages inside it). */
export function ErrorBoundary() {
  return <ErrorView />;
}
