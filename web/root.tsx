import { I18nextProvider } from "react-i18next";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, type LinksFunction } from "react-router";
import arabicFont from "@fontsource/noto-kufi-arabic/files/noto-kufi-arabic-arabic-400-normal.woff2?url";
import stylesheet from "./app.css?url";
import { ErrorView } from "./components/error-view.tsx";
import { useLocale } from "./hooks.ts";
import { useNonce } from "./nonce.ts";
import { directionOf, getI18n } from "./i18n/i18n.ts";

export const links: LinksFunction = () => [
  // `precedence` makes React put the stylesheet first in <head>, before the scripts' modulepreloads: over HTTP/1.1
  // (6 connections per host) the render-blocking CSS otherwise waits behind them (Lighthouse FCP).
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * The document: `<html lang dir>` from the locale segment, or the admin's preferred locale (spec §1: Arabic is
 * right-to-left). Arabic pages preload the Arabic font's main weight (the file app.css declares), which the
 * browser would otherwise discover only after the stylesheet; `links` cannot see the locale, so it is here.
 */
export function Layout({ children }: { children: React.ReactNode }) {
  const locale = useLocale();
  const nonce = useNonce();
  return (
    <html lang={locale} dir={directionOf(locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark" />
        {locale === "ar" && <link rel="preload" href={arabicFont} as="font" type="font/woff2" crossOrigin="" />}
        <Meta />
        {/* Stylesheets are allowed by `style-src 'self'`, not by nonce; browsers keep a link's nonce in the DOM
            (they hide only scripts'), so a nonce here would not hydrate. */}
        <Links nonce="" />
      </head>
      <body className="min-h-screen antialiased">
        <I18nextProvider i18n={getI18n(locale)}>{children}</I18nextProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
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
