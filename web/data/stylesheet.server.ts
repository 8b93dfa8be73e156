/**
 * The site's stylesheet as text, for inlining into each page's `<head>` (issue 18 item 6): a linked stylesheet
 * blocks the first paint for one more round trip (Lighthouse's "render-blocking resource", FCP and LCP on a
 * slow phone network), while 8 kB gzip of CSS inside the HTML does not. Vite compiles the same `app.css` as
 * the browser build (Tailwind, minified; `url()`s become the same hashed `/assets/…` files), so the text here
 * is the browser stylesheet's. Server only (the `.server` suffix keeps it out of browser bundles).
 */
import css from "../app.css?inline";

/** The compiled stylesheet (a CSS string, about 42 kB uncompressed). */
export const STYLESHEET: string = css;
