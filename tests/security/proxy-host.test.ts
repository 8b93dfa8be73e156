/**
 * SECURITY C56 (issue 13 item 4): proxy hops and the Host header, over real HTTP.
 * - With `TRUST_PROXY=1` the client IP is the right-most `X-Forwarded-For` entry (the one the proxy appended),
 *   so a client writing its own entries cannot get past the ten sign-ups an hour (C14).
 * - A request naming a host that is not the site's gets 421, before the page cache and before rendering, so no
 *   page links to the attacker's host; a malformed `Host` gets 400, and nothing is logged.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT } from "../helpers/stack.ts";
import { startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
/** The same site behind one trusted proxy (`TRUST_PROXY=true`, that is 1). */
let proxied: RunningSite;
beforeAll(async () => {
  stack = await startSiteStack();
  proxied = await startSite({ root: ROOT, port: 0, trustProxy: true }); // TRUST_PROXY=true: one hop
  // The cache serves only once the change feed is live: wait until a page is stored.
  const deadline = Date.now() + 10_000;
  while (stack.site.pages!.size === 0) {
    if (Date.now() > deadline) throw new Error("the page cache never went live");
    await fetch(`${stack.site.url}/en/blog`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(async () => {
  await proxied?.close();
  await stack.close();
});

/** A GET with headers fetch would not send as given (`Host`). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("client IP behind TRUST_PROXY=1 (C56, C14)", () => {
  it("counts sign-ups by the right-most X-Forwarded-For entry: spoofed left-most entries do not pass 10 an hour", async () => {
    const register = (forwardedFor: string, n: number) =>
      new Visitor(proxied.url).request("/en/login", {
        method: "POST",
        headers: { "X-Forwarded-For": forwardedFor },
        form: {
          intent: "register",
          name: "x",
          email: `proxy-${n}-${Date.now()}@example.com`,
          password: "correct horse battery",
          redirectTo: "/admin",
        },
      });
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) {
      // The client wrote "10.0.0.n"; the proxy appended the address it saw, 203.0.113.7.
      statuses.push((await register(`10.0.0.${n}, 203.0.113.7`, n)).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(302));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Another client behind the same proxy is not affected.
    expect((await register("10.0.0.1, 203.0.113.8", 99)).status).toBe(302);
  });
});

describe("Host (C56)", () => {
  const port = () => new URL(stack.site.url).port;

  it("answers a foreign Host with 421 on pages (cached or not), feeds and the sitemap", async () => {
    await fetch(`${stack.site.url}/en/blog`); // stored: the cache must not answer either
    for (const path of ["/en/blog", "/en", "/ar/about", "/en/rss.xml", "/sitemap.xml", "/robots.txt", "/en/blog?x=1"]) {
      for (const host of ["evil.example", `evil.example:${port()}`, `127.0.0.2:${port()}`]) {
        const reply = await rawGet(stack.site.url, path, { Host: host });
        expect(reply.status, `${host} ${path}`).toBe(421);
        expect(reply.body).not.toContain("evil.example");
      }
    }
  });

  it("answers the listening address and localhost, with the port", async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `LOCALHOST:${port()}`]) {
      const reply = await rawGet(stack.site.url, "/en", { Host: host });
      expect(reply.status, host).toBe(200);
    }
    const canonical = await rawGet(stack.site.url, "/en/blog", { Host: `localhost:${port()}` });
    expect(canonical.body).toContain(`href="http://localhost:${port()}/en/blog"`);
  });

  it("checks X-Forwarded-Host behind a trusted proxy, and ignores it otherwise", async () => {
    const proxiedPort = new URL(proxied.url).port;
    const foreign = await rawGet(proxied.url, "/en", { "X-Forwarded-Host": "evil.example" });
    expect(foreign.status).toBe(421);
    const own = await rawGet(proxied.url, "/en", { "X-Forwarded-Host": `localhost:${proxiedPort}` });
    expect(own.status).toBe(200);
    const ignored = await rawGet(stack.site.url, "/en", { "X-Forwarded-Host": "evil.example" });
    expect(ignored.status).toBe(200);
    expect(ignored.body).not.toContain("evil.example");
    expect((await rawGet(proxied.url, "/en", { "X-Forwarded-Proto": "gopher" })).status).toBe(400);
  });

  it("answers /healthz for any well-formed host (load balancers probe by address)", async () => {
    expect((await rawGet(stack.site.url, "/healthz", { Host: "10.1.2.3:8080" })).status).not.toBe(421);
  });

  it("answers a malformed Host with 400 and logs nothing", async () => {
    const logged: unknown[][] = [];
    const spies = [
      vi.spyOn(console, "error").mockImplementation((...args) => void logged.push(args)),
      vi.spyOn(console, "warn").mockImplementation((...args) => void logged.push(args)),
      vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
        logged.push([chunk]);
        return true;
      }),
    ];
    try {
      for (const host of ["a b", "x:99999", "[::1", "evil.example:", "a@evil.example", "%65vil.example", "x/y"]) {
        for (const path of ["/en", "/en/blog", "/admin"]) {
          const reply = await rawGet(stack.site.url, path, { Host: host });
          expect(reply.status, `${host} ${path}`).toBe(400);
        }
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(logged).toEqual([]);
  });
});
