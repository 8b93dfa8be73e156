/**
 * Captures pages of the running project for the benchmarks' peer (`scripts/bench/peer/`, issue #33 item 1):
 * each page's markup as a JSON element tree (React props prepared here, so the peer spends its time rendering,
 * not converting) and its loader data, decoded from the page's `.data` URL (React Router's turbo-stream, as
 * the browser's client navigation reads it). React Router's own tags (module preloads, its scripts) are left
 * out: the peer's `<Links>`/`<Scripts>` write its own.
 */
import { parseDocument } from "htmlparser2";
import type { ChildNode, Element } from "domhandler";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import type { CapturedPage, Captured, TreeNode } from "../peer/app/tree.tsx";

/** HTML attribute names whose React prop names differ. */
const PROP_NAMES: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  charset: "charSet",
  hreflang: "hrefLang",
  "http-equiv": "httpEquiv",
  crossorigin: "crossOrigin",
  tabindex: "tabIndex",
  srcset: "srcSet",
  fetchpriority: "fetchPriority",
  autocomplete: "autoComplete",
  maxlength: "maxLength",
  readonly: "readOnly",
  enctype: "encType",
  "stroke-width": "strokeWidth",
  "stroke-linecap": "strokeLinecap",
  "stroke-linejoin": "strokeLinejoin",
  "fill-rule": "fillRule",
  "clip-rule": "clipRule",
  viewbox: "viewBox",
};

/** A `style` attribute as React's style object. */
function styleObject(style: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const declaration of style.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon === -1) continue;
    const name = declaration.slice(0, colon).trim();
    const key = name.startsWith("--") ? name : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    out[key] = declaration.slice(colon + 1).trim();
  }
  return out;
}

/** React props of an element's attributes. */
function propsOf(attribs: Record<string, string>): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (name === "style") props.style = styleObject(value);
    else if (name === "nonce" || name === "data-discover")
      continue; // the peer sends no CSP; Link adds data-discover
    else props[PROP_NAMES[name] ?? name] = value;
  }
  return props;
}

/** Whether an element is React Router's (its scripts, module preloads): the peer renders its own. */
function isRouterTag(element: Element): boolean {
  if (element.name === "link" && element.attribs.rel === "modulepreload") return true;
  if (element.name !== "script") return false;
  if (element.attribs.type === "module") return true;
  const text = element.children.map((c) => ("data" in c ? c.data : "")).join("");
  return /__reactRouter|streamController/.test(text);
}

/** The tree of `nodes` (comments and React Router's tags dropped). */
function treeOf(nodes: ChildNode[], inNav = false): TreeNode[] {
  const out: TreeNode[] = [];
  for (const node of nodes) {
    if (node.type === "text") out.push(node.data);
    else if (node.type === "tag" || node.type === "script" || node.type === "style") {
      const element = node as Element;
      if (isRouterTag(element)) continue;
      const a = propsOf(element.attribs);
      if (element.name === "script" || element.name === "style") {
        const h = element.children.map((c) => ("data" in c ? c.data : "")).join("");
        out.push({ t: element.name, a, c: [], h });
        continue;
      }
      const nav = inNav || element.name === "nav";
      const href = element.attribs.href;
      if (element.name === "a" && element.attribs["data-discover"] === "true" && href?.startsWith("/")) {
        delete a.href;
        delete a["aria-current"];
        a.to = href;
        out.push({ t: nav ? "NavLink" : "Link", a, c: treeOf(element.children, nav) });
        continue;
      }
      out.push({ t: element.name, a, c: treeOf(element.children, nav) });
    }
  }
  return out;
}

function findTag(nodes: ChildNode[], name: string): Element {
  for (const node of nodes) {
    if (node.type === "tag" && (node as Element).name === name) return node as Element;
    if ("children" in node) {
      try {
        return findTag(node.children as ChildNode[], name);
      } catch {
        // not under this one
      }
    }
  }
  throw new Error(`no <${name}> in the captured page`);
}

/** The loader data of each route in a `.data` answer: root, locale layout, page (the order React Router uses). */
async function loaderData(response: Response): Promise<CapturedPage["data"]> {
  if (!response.ok || !response.body) throw new Error(`${response.url}: ${response.status}`);
  const decoded = await decodeViaTurboStream(response.body, globalThis as unknown as Window);
  const routes = decoded.value as Record<string, { data?: unknown }>;
  const ids = Object.keys(routes);
  if (ids.length !== 3) throw new Error(`expected root, layout and page data, got ${ids.join(", ")}`);
  const [root, layout, page] = ids.map((id) => routes[id]!.data);
  return { root, layout, page };
}

/**
 * Captures `paths` (e.g. `["/en", "/en/blog/<slug>"]`) of the site at `baseUrl`, as a guest.
 * @throws {Error} when a page or its data does not answer 200.
 */
export async function capturePages(baseUrl: string, paths: readonly string[]): Promise<Captured> {
  const pages: Record<string, CapturedPage> = {};
  for (const pathname of paths) {
    const response = await fetch(baseUrl + pathname);
    if (!response.ok) throw new Error(`${pathname}: ${response.status}`);
    const document = parseDocument(await response.text(), { lowerCaseAttributeNames: false });
    const html = findTag(document.children, "html");
    const head = findTag(html.children, "head");
    const body = findTag(html.children, "body");
    pages[pathname] = {
      htmlProps: propsOf(html.attribs),
      bodyProps: propsOf(body.attribs),
      head: treeOf(head.children),
      body: treeOf(body.children),
      data: await loaderData(await fetch(`${baseUrl}${pathname}.data`)),
    };
  }
  return { pages };
}
