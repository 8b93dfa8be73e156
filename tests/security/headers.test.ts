/**
 * SECURITY.md rows on response headers: C19 (hydration data escaped), C20–C21 (nonce-based CSP), C25 (COOP),
 * C26 (no CORS on the site), over real HTTP against the production build.
 */
import { ID } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { startSite } from "../../server/serve-site.ts";
import { ROOT } from "../helpers/fixtures.ts";
import { startSiteStack, type SiteStack } from "../helpers/site.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let stack: SiteStack;
beforeAll(async () => {
  stack = await startSiteStack();
});
afterAll(async () => stack.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(stack.site.url + path, { headers, redirect: "manual" });

describe("Content-Security-Policy (C20, C21)", () => {
  it("allows scripts only with a fresh 128-bit nonce, and forbids plugins, <base> and framing", async () => {
    const first = await get("/en");
    const second = await get("/en");
    const csp = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce?.length).toBeGreaterThanOrEqual(22);
    expect(/'nonce-([^']+)'/.exec(second.headers.get("content-security-policy")!)?.[1]).not.toBe(nonce);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const scriptSrc = /script-src ([^;]+)/.exec(csp)![1]!;
    expect(scriptSrc).toContain("'strict-dynamic'");
    expect(scriptSrc).not.toMatch(/'unsafe-inline'|'unsafe-eval'/);

    const body = (await first.text()).split("<body")[1]!;
    const scripts = body.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("allows inline styles only with the response's nonce: the inlined stylesheet carries it (issue 18)", async () => {
    for (const path of ["/en", "/ar/blog", "/en/no-such-page"]) {
      const reply = await get(path);
      const csp = reply.headers.get("content-security-policy")!;
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
      const styleSrc = /style-src ([^;]+)/.exec(csp)![1]!;
      expect(styleSrc, path).toBe(`'self' 'nonce-${nonce}'`);
      const html = await reply.text();
      const styles = html.match(/<style\b[^>]*>/g) ?? [];
      expect(styles.length, path).toBe(1);
      for (const tag of styles) expect(tag, path).toContain(`nonce="${nonce}"`);
      // The built stylesheet itself, inlined whole: no stylesheet is linked.
      expect(html, path).not.toMatch(/<link[^>]+rel="stylesheet"/);
      const style = /<style nonce="[^"]+" data-href="([^"]+)">([\s\S]*?)<\/style>/.exec(html);
      expect(style, path).not.toBeNull();
      const built = await (await get(style![1]!)).text();
      expect(style![2]!.trim(), path).toBe(built.trim());
    }
  });

  it("sends the same policy on error pages, the login page and the admin redirect target", async () => {
    for (const path of ["/en/no-such-page", "/en/login", "/ar/blog"]) {
      expect((await get(path)).headers.get("content-security-policy"), path).toMatch(/script-src 'nonce-/);
    }
  });
});

describe("other headers (C25, C26)", () => {
  it("isolates the browsing context (COOP) and answers no cross-origin request with CORS headers", async () => {
    for (const origin of ["https://evil.example", "null"]) {
      const reply = await get("/en", { Origin: origin });
      expect(reply.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(reply.headers.get("access-control-allow-origin")).toBeNull();
      expect(reply.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("sends HSTS for two years on https behind a TLS proxy, rendered or from the page cache (C23)", async () => {
    const behindTls = await startSite({ root: ROOT, port: 0, trustProxy: true });
    try {
      for (const path of ["/en", "/en", "/en", "/ar/blog", "/en/no-such-page"]) {
        const reply = await fetch(behindTls.url + path, { headers: { "X-Forwarded-Proto": "https" } });
        const hsts = reply.headers.get("strict-transport-security") ?? "";
        expect(Number(/max-age=(\d+)/.exec(hsts)?.[1]), path).toBeGreaterThanOrEqual(31_536_000);
        expect(hsts, path).toContain("includeSubDomains");
      }
      // The same site on plain http: the https page stored above must not answer it.
      expect((await fetch(`${behindTls.url}/en`)).headers.get("strict-transport-security")).toBeNull();
    } finally {
      await behindTls.close();
    }
  });

  it("sends no HSTS on plain http (it is for https only)", async () => {
    expect((await get("/en")).headers.get("strict-transport-security")).toBeNull();
  });
});

describe("hydration data (C19)", () => {
  it("escapes a value that tries to close the script it is embedded in", async () => {
    const evil = "</script><script>alert(1)</script>\u2028";
    await stack.backend.services.databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.venture.collectionId,
      documentId: ID.unique(),
      data: {
        name: evil,
        slug: "hydration",
        shortDescription: evil,
        caseStudy: "<p>x</p>",
        websiteURL: "https://x.example",
      },
      permissions: ['read("any")'],
    });
    const html = await (await get("/en/ventures/hydration")).text();
    expect(html).not.toContain("</script><script>alert(1)");
    expect(html).toMatch(/\\u003c\/script|\\\\u003c\/script|&lt;\/script&gt;/);
  });
});
