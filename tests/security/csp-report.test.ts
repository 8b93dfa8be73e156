/**
 * SECURITY C22 (ASVS v5 3.4.7) over real HTTP against the production build: pages name a same-origin report
 * endpoint in their CSP (`report-uri`; on https also `report-to` + `Reporting-Endpoints`); `/csp-report` takes
 * both report formats with the headers Chromium sends (204), refuses what is not a small report (413, 405, 415, 400), and logs one
 * line per violation, at most 10 a minute. Its own file: the log limit is per process.
 */
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { startSite } from "../../server/serve-site.ts";
import { ROOT } from "../helpers/fixtures.ts";
import { startSiteStack, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
let warn: MockInstance<typeof console.warn>;
beforeAll(async () => {
  stack = await startSiteStack();
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(async () => {
  warn.mockRestore();
  await stack.close();
});

const cspLines = () => warn.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith("[csp] "));

/** A report as Chromium's `report-uri` sends it. */
const legacyReport = (blocked: string, page = `${stack.site.url}/en`) =>
  JSON.stringify({
    "csp-report": {
      "document-uri": page,
      referrer: "",
      "violated-directive": "img-src",
      "effective-directive": "img-src",
      "original-policy": "default-src 'self'",
      disposition: "enforce",
      "blocked-uri": blocked,
      "status-code": 200,
    },
  });

/** Posts a report with the headers Chromium 156 sends for `report-uri`. */
const post = (body: string, contentType: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.site.url}/csp-report`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": contentType,
      Origin: stack.site.url,
      "Sec-Fetch-Site": "same-origin",
      "Sec-Fetch-Mode": "no-cors",
      "Sec-Fetch-Dest": "report",
      ...headers,
    },
  });

describe("CSP reporting (C22)", () => {
  it("names the same-origin endpoint with report-uri on http pages (Chromium ignores it next to report-to)", async () => {
    for (const path of ["/en", "/ar/blog", "/en/no-such-page", "/en/login"]) {
      const reply = await fetch(stack.site.url + path);
      const csp = reply.headers.get("content-security-policy") ?? "";
      expect(csp, path).toMatch(/(^|; )report-uri \/csp-report(;|$)/);
      expect(csp, path).not.toContain("report-to");
      expect(reply.headers.get("reporting-endpoints"), path).toBeNull();
    }
  });

  it("adds report-to and Reporting-Endpoints on https, whose reports (no Sec-Fetch-*) get through", async () => {
    const behindTls = await startSite({ root: ROOT, port: 0, trustProxy: true });
    try {
      for (const path of ["/en", "/en/no-such-page"]) {
        const reply = await fetch(behindTls.url + path, { headers: { "X-Forwarded-Proto": "https" } });
        const csp = reply.headers.get("content-security-policy") ?? "";
        expect(csp, path).toMatch(/(^|; )report-uri \/csp-report(;|$)/);
        expect(csp, path).toMatch(/(^|; )report-to csp-endpoint(;|$)/);
        expect(reply.headers.get("reporting-endpoints"), path).toBe('csp-endpoint="/csp-report"');
      }
      // As Chromium's Reporting API posts: the page's Origin, no Sec-Fetch-* headers.
      const report = await fetch(`${behindTls.url}/csp-report`, {
        method: "POST",
        body: JSON.stringify([{ type: "csp-violation", url: "https://x/", body: { effectiveDirective: "img-src" } }]),
        headers: {
          "Content-Type": "application/reports+json",
          Origin: behindTls.url.replace("http:", "https:"),
          "X-Forwarded-Proto": "https",
        },
      });
      expect(report.status).toBe(204);
    } finally {
      await behindTls.close();
    }
  });

  it("answers 204 to a report-uri report and logs one line without the page's query string", async () => {
    const reply = await post(
      legacyReport("http://evil.example/pixel.png?x=1", `${stack.site.url}/en/login?redirectTo=%2Fadmin&t=secret`),
      "application/csp-report",
    );

    expect(reply.status).toBe(204);
    expect(await reply.text()).toBe("");
    expect(cspLines().slice(-1)).toEqual([
      `[csp] CSP violation (enforce): img-src blocked http://evil.example/pixel.png on ${stack.site.url}/en/login`,
    ]);
  });

  it("answers 204 to a Reporting API batch, also with only Sec-Fetch-Site: same-origin and no Origin", async () => {
    const batch = JSON.stringify([
      {
        type: "csp-violation",
        age: 10,
        url: `${stack.site.url}/en`,
        user_agent: "Chromium",
        body: {
          documentURL: `${stack.site.url}/en`,
          blockedURL: "inline",
          effectiveDirective: "script-src-elem",
          disposition: "enforce",
          statusCode: 200,
        },
      },
      { type: "deprecation", age: 1, url: `${stack.site.url}/en`, body: { id: "x" } },
    ]);
    const before = cspLines().length;

    expect((await post(batch, "application/reports+json")).status).toBe(204);
    const noOrigin = await fetch(`${stack.site.url}/csp-report`, {
      method: "POST",
      body: batch,
      headers: { "Content-Type": "application/reports+json", "Sec-Fetch-Site": "same-origin" },
    });
    expect(noOrigin.status).toBe(204);
    expect(cspLines().slice(before)).toEqual([
      `[csp] CSP violation (enforce): script-src-elem blocked inline on ${stack.site.url}/en`,
      `[csp] CSP violation (enforce): script-src-elem blocked inline on ${stack.site.url}/en`,
    ]);
  });

  it("keeps a forged line break out of the log", async () => {
    const before = cspLines().length;
    expect((await post(legacyReport("inline\n[csp] forged line"), "application/csp-report")).status).toBe(204);
    const added = warn.mock.calls.slice(-1).map((call) => String(call[0]));
    expect(cspLines().length).toBe(before + 1);
    expect(added[0]).not.toContain("\n");
  });

  it("refuses a report over 16 KB (413), a GET (405), another media type (415) and a body that is no report (400)", async () => {
    const big = legacyReport(`https://evil.example/${"a".repeat(16 * 1024)}`);
    expect((await post(big, "application/csp-report")).status).toBe(413);

    const get = await fetch(`${stack.site.url}/csp-report`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");

    expect((await post(legacyReport("inline"), "text/plain")).status).toBe(415);
    expect((await post("{not json", "application/csp-report")).status).toBe(400);
    expect((await post(JSON.stringify({ hello: "world" }), "application/csp-report")).status).toBe(400);
  });

  it("still refuses a report from another origin (the mutation guard, C9)", async () => {
    expect(
      (await post(legacyReport("inline"), "application/csp-report", { Origin: "https://evil.example" })).status,
    ).toBe(400);
  });

  it("logs at most 10 lines a minute however many reports arrive", async () => {
    for (let i = 0; i < 15; i++) {
      expect((await post(legacyReport(`https://evil.example/${i}.png`), "application/csp-report")).status).toBe(204);
    }
    expect(cspLines()).toHaveLength(10);
  });
});
