import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, renderToStaticMarkup, type RenderToPipeableStreamOptions } from "react-dom/server";
import { ServerRouter, type EntryContext } from "react-router";
import { warmSanitizerThread } from "../lib/html/sanitize-thread.ts";
import { StaticMarkupContext } from "./components/hydration-scripts.tsx";
import { NonceContext } from "./nonce.ts";
import { STYLESHEET } from "./data/stylesheet.server.ts";
import { StylesheetContext } from "./stylesheet.ts";
import { CSP_REPORT_GROUP, CSP_REPORT_PATH, REPORTING_ENDPOINTS } from "./data/csp-report.server.ts";

// The server build is loaded once per site process: start the sanitizer thread now, not at the first body.
void warmSanitizerThread();

/** How long a streamed response may take before pending parts are abandoned, in ms. */
export const streamTimeout = 5_000;

/**
 * The Content-Security-Policy of every page (SECURITY C20–C21): scripts only with this response's nonce (and
 * what they load, `strict-dynamic`); no plugins, no `<base>`, no framing; forms post to this site only. Images
 * may come from https (external image URLs in content) and `blob:` (the admin's previews). Style elements only
 * from this site or with the nonce (the inlined stylesheet, root.tsx); the development server injects its
 * own `<style>` elements for hot reloading, so there (only) inline styles stay allowed.
 *
 * Violations are reported to `/csp-report` (C22) with `report-uri`, and on https also with `report-to` (the
 * `Reporting-Endpoints` entry sent with the page). Chromium ignores `report-uri` once `report-to` is present,
 * but delivers Reporting API reports only from https pages (seen with Chromium 156 on http://127.0.0.1), so
 * plain http pages name `report-uri` alone and still get their reports.
 * @param secure whether the page is served over https.
 */
export function contentSecurityPolicy(nonce: string, secure: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    import.meta.env.DEV ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    `report-uri ${CSP_REPORT_PATH}`,
    ...(secure ? [`report-to ${CSP_REPORT_GROUP}`] : []),
  ].join("; ");
}

/**
 * Renders a document request with a fresh 128-bit nonce, and the security headers that go with it: CSP
 * with its reporting endpoint (C22), Cross-Origin-Opener-Policy, and on https `Reporting-Endpoints` and
 * HSTS (C23). Bots and SPA renders wait for all content.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  const nonce = randomBytes(16).toString("base64");
  const secure = new URL(request.url).protocol === "https:";
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, secure));
  responseHeaders.set("Cross-Origin-Opener-Policy", "same-origin");
  if (secure) {
    responseHeaders.set("Reporting-Endpoints", REPORTING_ENDPOINTS);
    responseHeaders.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
  // RFC 9110 §9.3.2: HEAD gets the headers only.
  if (request.method.toUpperCase() === "HEAD")
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    // Node's renderer, not the web-streams one (`react-dom/server.edge`): that one skips React's AsyncLocalStorage
    // (whose async hooks Node 20 then runs for every promise), but cost 0.99–1.33× the CPU a request (/en, a post,
    // both encodings: `RENDER_BENCH_BEFORE=<main> npx tsx scripts/bench/render-path.ts 6 2 2`; issue #33, stop 43).
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <StylesheetContext.Provider value={import.meta.env.DEV ? "" : STYLESHEET}>
          <StaticMarkupContext.Provider value={renderToStaticMarkup}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </StaticMarkupContext.Provider>
        </StylesheetContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell are logged by React Router; these happen while streaming.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
