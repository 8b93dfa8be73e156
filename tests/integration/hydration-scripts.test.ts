/**
 * Issue #33 item 1: React Router's `<Scripts>` markup (inside the inert `<template>` of
 * `web/components/hydration-scripts.tsx`) is rendered once per path and reused with each response's nonce.
 * Given the site with the page cache off (every request renders), when a page is asked twice, then both
 * answers carry the same scripts with their own nonce, the loader data is still streamed after them, and
 * another page gets its own routes' scripts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { startSiteStack, type SiteStack } from "../helpers/site.ts";
import { ROOT } from "../helpers/stack.ts";

let stack: SiteStack;
let uncached: RunningSite;
beforeAll(async () => {
  stack = await startSiteStack();
  uncached = await startSite({ root: ROOT, port: 0, pageCache: false });
});
afterAll(async () => {
  await uncached.close();
  await stack.close();
});

/** A rendered page: its nonce (from the CSP), the `<template>`'s markup, and the whole HTML. */
async function render(path: string) {
  const reply = await fetch(uncached.url + path);
  expect(reply.headers.get("etag"), "rendered, not cached").toBeNull();
  const nonce = /'nonce-([^']+)'/.exec(reply.headers.get("content-security-policy")!)![1]!;
  const html = await reply.text();
  const template = /<template>([\s\S]*?)<\/template>/.exec(html)![1]!;
  return { nonce, html, template };
}

describe("<Scripts> rendered once per path", () => {
  it("gives every render the same scripts with its own nonce, and still streams the loader data", async () => {
    const renders = [await render("/en"), await render("/en"), await render("/en")];
    const nonces = new Set(renders.map((r) => r.nonce));
    expect(nonces.size).toBe(3);
    for (const { nonce, html, template } of renders) {
      // Written inert: no module preload reaches the head; they wait in the template, just before its loader.
      expect(html.slice(0, html.indexOf("</head>"))).not.toContain("modulepreload");
      expect(html).toMatch(/<template>[\s\S]*?<\/template><script nonce="[^"]+">/);
      expect(template).toMatch(/<link rel="modulepreload" href="\/assets\/entry\.client-/);
      expect(template).toContain("window.__reactRouterContext =");
      expect(template).toContain('"routes/public/home"');
      expect(template.match(/nonce="([^"]*)"/g)!.every((attribute) => attribute === `nonce="${nonce}"`)).toBe(true);
      expect(html).toContain(`<script nonce="${nonce}">window.__reactRouterContext.streamController.enqueue(`);
    }
    const [first, ...others] = renders.map(({ nonce, template }) => template.split(nonce).join("NONCE"));
    for (const other of others) expect(other).toBe(first);
  });

  it("gives each page its own routes' scripts", async () => {
    const post = /href="(\/en\/blog\/[^"?]+)"/.exec((await render("/en/blog")).html)![1]!;
    await render("/en");
    const modules = (template: string) => /__reactRouterRouteModules = \{([^}]*)\}/.exec(template)![1]!;
    const { template } = await render(post);
    expect(modules(template)).not.toContain('"routes/public/home"');
    expect(modules(template)).toMatch(/"routes\/public\/(?:post|kind-item)[^"]*":route2/);
    expect(modules((await render("/ar")).template)).toContain('"routes/public/home":route2');
  });
});
