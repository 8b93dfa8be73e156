import { createContext, useContext, type Context, type ReactNode } from "react";
import { HERO_TIMING } from "./media-image.tsx";
import {
  Scripts,
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
} from "react-router";

/**
 * React DOM's `renderToStaticMarkup`, given by `entry.server.tsx` (null in the browser, which must not load
 * React's server renderer).
 */
export const StaticMarkupContext = createContext<((node: ReactNode) => string) | null>(null);

/**
 * Starts React Router's scripts after the page's first paint (issue #18 item 6).
 *
 * `<Scripts>` writes the hydration data (a classic script), `modulepreload` links for the route's modules,
 * and a module script that imports them and hydrates. Left in the document, the browser fetched about 120 kB
 * of modules at high priority while it was still laying out the server's complete HTML, ran them before it
 * painted, and Lighthouse counted all of it in the page's first and largest paint. Nothing on a public page
 * needs them to show: links are plain anchors and forms post without JavaScript.
 *
 * So the server writes them inside a `<template>` (inert: nothing in it is fetched or run), followed by a
 * small script with the response's CSP nonce that copies them out. The hydration data runs at once, as
 * before (the streamed data scripts after it need it); the links and the module script are inserted when the
 * browser reports its first contentful paint (Paint Timing; in a browser without it, after the next animation
 * frame). A tab in the background does not paint, so there they are inserted at once. Scripts the
 * nonce'd script creates are allowed by the policy's `'strict-dynamic'` (SECURITY C20–C21). Decision 0012.
 *
 * The same paint starts the web fonts (decision 0018), at once on a page without a hero picture, else once
 * Element Timing reports the picture painted (it is the largest paint of a post; in a browser without Element
 * Timing, the frame after it has decoded; at once if it fails). The loader reads which faces the page's text
 * will use (each text element's fallback family, named "<web family> Fallback", and weight), loads them with
 * `document.fonts.load`, and when all have arrived removes `fonts-later` from <html> (set by the head's
 * `FONTS_LATER_SCRIPT`): every face swaps in the same frame, so no line is laid out in a mix of web and
 * fallback faces (those mixes moved a word by 3 px). A face that has not arrived after 3 s swaps in alone.
 * The 3 s safety timer starts them too.
 *
 * They are rendered apart, as a string, with the router's contexts: rendered in the tree, React would hoist the
 * `<link>` elements out of the template into `<head>` (React 19 hoists every link). The browser hydrates the
 * template as it is (React compares no `dangerouslySetInnerHTML`), and the loader's text is the same on both
 * sides.
 */
export function HydrationScripts({ nonce }: { nonce: string }) {
  const renderStatic = useContext(StaticMarkupContext);
  const framework = useContext(FrameworkContext);
  const dataRouter = useContext(DataRouterContext);
  const state = useContext(DataRouterStateContext);
  const scripts =
    renderStatic && framework && state
      ? staticScripts(nonce, state, framework, () =>
          renderStatic(
            <FrameworkContext.Provider value={framework}>
              <DataRouterContext.Provider value={dataRouter}>
                <DataRouterStateContext.Provider value={state}>
                  <Scripts nonce={SCRIPTS_NONCE} />
                </DataRouterStateContext.Provider>
              </DataRouterContext.Provider>
            </FrameworkContext.Provider>,
          ),
        )
      : "";
  return (
    <>
      <template dangerouslySetInnerHTML={{ __html: scripts }} suppressHydrationWarning />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: LOADER }} suppressHydrationWarning />
    </>
  );
}

/**
 * The nonce `<Scripts>` is rendered with on the server, replaced by the response's in the markup: random per
 * process, so no page content can hold it (as the page cache's templates, `server/http/page-cache.ts`).
 */
const SCRIPTS_NONCE = typeof document === "undefined" ? `scripts-${globalThis.crypto.randomUUID()}` : "";
/** `<Scripts>` markup split on `SCRIPTS_NONCE`, per path and matched routes (bounded). */
const renderedScripts = new Map<string, readonly string[]>();
const MAX_RENDERED_SCRIPTS = 256;

type ContextValue<C> = C extends Context<infer V> ? NonNullable<V> : never;
type RouterState = ContextValue<typeof DataRouterStateContext>;
type Framework = ContextValue<typeof FrameworkContext>;

/**
 * `<Scripts>`' markup with `nonce`. It depends on the build (manifest, entry), the path (its routes and its
 * ancestors' routes, for the partial manifest) and the matched routes, never on loader data (streamed apart):
 * so it is rendered once per path and matched routes and reused with each response's nonce; a second React
 * renderer per request cost ~5 % of a render (issue #33 item 1). A page with errors is rendered each time.
 */
function staticScripts(nonce: string, state: RouterState, framework: Framework, render: () => string): string {
  if (state.errors) return render().split(SCRIPTS_NONCE).join(nonce);
  const key = `${state.location.pathname}\n${state.matches.map((match) => match.route.id).join("\n")}`;
  let parts = renderedScripts.get(key);
  if (!parts) {
    parts = render().split(SCRIPTS_NONCE);
    if (renderedScripts.size >= MAX_RENDERED_SCRIPTS) renderedScripts.clear();
    renderedScripts.set(key, parts);
  } else if (framework.renderMeta) {
    // What rendering <Scripts> marks, for React Router's stream of loader data (StreamTransfer).
    framework.renderMeta.didRenderScripts = true;
  }
  return parts.join(nonce);
}

/**
 * The class the head's script sets on <html> until the page has painted: while it is set the stylesheet names no
 * web font, so none is requested before the first paint (web/app.css, decision 0018).
 */
export const FONTS_LATER = "fonts-later";

/**
 * The head's script: web fonts wait for the loader below. Without JavaScript it never runs, and the faces load as
 * the stylesheet finds them.
 */
export const FONTS_LATER_SCRIPT = `document.documentElement.classList.add("${FONTS_LATER}")`;

/** A visible page that has not painted after this many ms (a very busy machine) gets its scripts and fonts anyway. */
const WITHOUT_PAINT_MS = 3000;

/** The loader (ES2019, which every supported browser runs as written: it is not bundled). */
export const LOADER = `(() => {
  const self = document.currentScript, template = self.previousElementSibling, later = [];
  for (const element of template.content.children) {
    const copy = document.createElement(element.localName);
    for (const { name, value } of element.attributes) copy.setAttribute(name, value);
    if (element.localName === "script") {
      copy.nonce = self.nonce;
      copy.text = element.text;
      if (element.type !== "module") {
        template.before(copy);
        continue;
      }
    }
    later.push(copy);
  }
  let started = false, fontsStarted = false;
  const fontsIn = () => document.documentElement.classList.remove("${FONTS_LATER}");
  const fonts = () => {
    if (fontsStarted) return;
    fontsStarted = true;
    if (!document.fonts || !document.fonts.load) return fontsIn();
    const wanted = new Map();
    for (const element of document.body.querySelectorAll("*")) {
      let text = "";
      for (const node of element.childNodes) if (node.nodeType === 3) text += node.data;
      if (!text.trim()) continue;
      const style = getComputedStyle(element);
      const family = style.fontFamily.split(",")[0].trim().replace(/^"|"$/g, "").replace(/ Fallback$/, "");
      const font = (Number(style.fontWeight) >= 600 ? 700 : 400) + ' 16px "' + family + '"';
      wanted.set(font, (wanted.get(font) || "") + text);
    }
    Promise.all([...wanted].map(([font, text]) => document.fonts.load(font, text).catch(() => []))).then(fontsIn);
    setTimeout(fontsIn, ${WITHOUT_PAINT_MS});
  };
  const afterHero = () => {
    const hero = document.querySelector('img[elementtiming="${HERO_TIMING}"]');
    if (!hero) return fonts();
    hero.addEventListener("error", fonts);
    if (typeof PerformanceObserver === "function" && (PerformanceObserver.supportedEntryTypes || []).includes("element")) {
      new PerformanceObserver((list, observer) => {
        if (!list.getEntries().some((entry) => entry.element === hero)) return;
        observer.disconnect();
        fonts();
      }).observe({ type: "element", buffered: true });
    } else hero.decode().then(() => requestAnimationFrame(() => setTimeout(fonts, 0)), fonts);
  };
  const start = () => {
    if (started) return;
    started = true;
    template.before(...later);
    afterHero();
  };
  const paintObservable = typeof PerformanceObserver === "function" &&
    (PerformanceObserver.supportedEntryTypes || []).includes("paint");
  if (document.visibilityState === "hidden") (start(), fonts()); // a background tab does not paint
  else if (paintObservable) {
    new PerformanceObserver((list, observer) => {
      if (!list.getEntriesByName("first-contentful-paint").length) return;
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
  } else requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(() => (start(), fonts()), ${WITHOUT_PAINT_MS});
})();`;
