/**
 * Issue #32 items 2 and 3: Debian's nginx with the deployment guide's configuration
 * (`docs/deployment/nginx.conf`, run by `scripts/dev/nginx.ts`) in front of two site processes on loopback
 * ports with `TRUST_PROXY=1`: pages in both languages, sign-in and forms through the proxy, the client IP the
 * limits see, a foreign Host refused; and nginx's `proxy_cache` serving public pages without reaching the
 * site, a publish visible within `CDN_MAX_AGE` + `CDN_STALE_WHILE_REVALIDATE`, the purge hook called with
 * the item's keys.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Query } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { updateItemDocument } from "../../lib/publish/writer.ts";
import { push } from "../../lib/publish/push.ts";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { freePort, startNginx, type RunningNginx } from "../../scripts/dev/nginx.ts";
import { ROOT, startBackend, type Backend } from "../helpers/stack.ts";
import { markupOf, Visitor } from "../helpers/site.ts";
import path from "node:path";

/**
 * Shared-cache settings of this test: the documented bound is their sum. Shorter than a real site's, so the wait
 * for a publish to show through nginx is 3 s of the timing project, not 6.
 */
const CACHING = { sharedMaxAge: 2, staleWhileRevalidate: 1 };
const SLUG = "what-is-a-micro-service-agency";

let backend: Backend;
let sites: RunningSite[] = [];
let nginx: RunningNginx;
let purgeHook: Server;
const purges: string[][] = [];
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  backend = await startBackend();
  await push(backend.services, { contentDir: path.join(ROOT, "content") });
  purgeHook = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      purges.push((JSON.parse(body) as { keys: string[] }).keys);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => purgeHook.listen(0, "127.0.0.1", resolve));
  const port = await freePort();
  const env = {
    APPWRITE_ENDPOINT: backend.emulator.endpoint,
    APPWRITE_PROJECT_ID: backend.emulator.projectId,
    APPWRITE_API_KEY: backend.emulator.apiKey,
    SITE_URL: `http://localhost:${port}`,
    CDN_PURGE_URL: `http://127.0.0.1:${(purgeHook.address() as AddressInfo).port}/purge`,
  };
  for (const [name, value] of Object.entries(env)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  const options = { root: ROOT, port: 0, trustProxy: true, siteUrl: env.SITE_URL, sharedCaching: CACHING };
  sites = [await startSite(options), await startSite(options)];
  nginx = await startNginx({ upstreams: sites.map((site) => site.port), port });
});
afterAll(async () => {
  await nginx?.close();
  for (const site of sites) await site.close();
  await new Promise<void>((resolve) => (purgeHook ? purgeHook.close(() => resolve()) : resolve()));
  await backend?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Requests that reached either site process. */
const originRequests = () => sites.reduce((sum, site) => sum + site.stats.requests, 0);

/** A request to nginx over node:http: any Host, any local (client) address on loopback. */
function raw(
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: nginx.port,
        path: pathname,
        method: options.method ?? "GET",
        localAddress: options.localAddress,
        headers: { Host: `localhost:${nginx.port}`, ...options.headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("behind nginx (issue #32 item 2)", () => {
  it("serves pages in English and Arabic, from both site processes", async () => {
    const en = await fetch(`${nginx.url}/en`);
    expect(en.status).toBe(200);
    expect(await en.text()).toMatch(/<html[^>]*lang="en"/);
    const ar = await fetch(`${nginx.url}/ar`);
    expect(ar.status).toBe(200);
    expect(await ar.text()).toMatch(/<html[^>]*lang="ar"[^>]*dir="rtl"|<html[^>]*dir="rtl"[^>]*lang="ar"/);
    for (const page of ["/en/about", "/ar/about", "/en/services", "/ar/services", "/en/ventures", "/ar/ventures"]) {
      expect((await fetch(nginx.url + page)).status).toBe(200);
    }
    // nginx spreads the misses over both upstreams.
    expect(sites.every((site) => site.stats.requests > 0)).toBe(true);
  });

  it("signs in and posts forms through the proxy; signed-in pages are never kept", async () => {
    const visitor = new Visitor(nginx.url);
    const registered = await visitor.register("owner@example.com");
    expect(registered.status).toBe(302);
    expect(registered.location).toBe("/admin");
    expect(visitor.cookie).toMatch(/^studio_session=/);
    const admin = await visitor.request("/admin");
    expect(admin.status).toBe(200);
    expect(admin.headers.get("cache-control")).toBe("no-store");
    expect(admin.headers.get("x-cache-status")).toBe("BYPASS");
    const signedIn = await visitor.request("/en/blog");
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(signedIn.headers.get("x-cache-status")).toBe("BYPASS");
    expect(signedIn.headers.get("surrogate-key")).toBeNull();
    // A guest then gets the public page, not the signed-in one.
    const guest = await fetch(`${nginx.url}/en/blog`);
    expect(guest.headers.get("cache-control")).toMatch(
      new RegExp(`^public, max-age=0, s-maxage=${CACHING.sharedMaxAge},`),
    );

    const sent = await new Visitor(nginx.url).request("/ar/contact", {
      method: "POST",
      form: { name: "Layla", email: "layla@example.com", message: "مرحبا" },
    });
    expect(sent.status).toBe(200);
    expect(markupOf(sent.text)).toContain("تم إرسال الرسالة!");
  });

  it("lets the limits see the visitor's own address (nginx's X-Forwarded-For, TRUST_PROXY=1), not a spoofed one", async () => {
    const post = (localAddress: string, n: number) => {
      const body = new URLSearchParams({ name: "Flood", email: `flood-${localAddress}@example.com`, message: `m${n}` });
      return raw("/en/contact", {
        method: "POST",
        localAddress,
        body: body.toString(),
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: `http://localhost:${nginx.port}`,
          // Each post claims another client: nginx appends the address it saw, and the site reads that one.
          "X-Forwarded-For": `198.51.100.${n}`,
        },
      });
    };
    const statuses: number[] = [];
    for (let n = 0; n < 7; n++) statuses.push((await post("127.0.0.2", n)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Another visitor behind the same nginx is not affected: the limit is not nginx's address.
    expect((await post("127.0.0.3", 0)).status).toBe(200);
  });

  it("refuses a foreign Host, and never passes on a visitor's X-Forwarded-Host", async () => {
    const before = originRequests();
    expect((await raw("/en", { headers: { Host: "evil.example" } })).status).toBe(421);
    expect((await raw("/en/blog", { headers: { Host: "evil.example" } })).status).toBe(421);
    expect(originRequests()).toBe(before);
    const forged = await raw("/en/about", { headers: { "X-Forwarded-Host": "evil.example" } });
    expect(forged.status).toBe(200);
    expect(forged.text).not.toContain("evil.example");
  });
});

describe("CDN-ready caching through nginx's proxy_cache (issue #32 item 3)", () => {
  it("serves a cached public page without reaching the site, with its surrogate keys", async () => {
    const first = await fetch(`${nginx.url}/en/ventures`);
    await first.arrayBuffer();
    expect(first.headers.get("surrogate-key")).toBe("site list:venture");
    expect(first.headers.get("cache-tag")).toBe("site,list:venture");
    expect(first.headers.get("vary")).toMatch(/Cookie/);
    const before = originRequests();
    const statuses: string[] = [];
    for (let i = 0; i < 20; i++) {
      const reply = await fetch(`${nginx.url}/en/ventures`);
      expect(reply.status).toBe(200);
      await reply.arrayBuffer();
      statuses.push(reply.headers.get("x-cache-status") ?? "");
    }
    // Within s-maxage (2 s; the 20 requests take well under that) nginx answers alone; a refresh past it may reach
    // the site once.
    expect(statuses.filter((s) => s === "HIT").length).toBeGreaterThanOrEqual(15);
    expect(originRequests() - before).toBeLessThanOrEqual(statuses.filter((s) => s !== "HIT").length);
    expect(originRequests() - before).toBeLessThan(5);
  });

  it("shows a publish within CDN_MAX_AGE + stale-while-revalidate, and POSTs the item's keys to CDN_PURGE_URL", async () => {
    const page = `/en/blog/${SLUG}`;
    await (await fetch(nginx.url + page)).arrayBuffer();
    const cached = await fetch(nginx.url + page);
    expect(cached.headers.get("surrogate-key")).toBe(`site post:${SLUG}`);
    await cached.arrayBuffer();

    const rows = await backend.services.tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId: CONTENT_MODEL.post.collectionId,
      queries: [Query.equal("slug", SLUG), Query.equal("locale", "en")],
    });
    const title = "A title published through the API";
    purges.length = 0;
    await updateItemDocument(backend.services.tablesDB, rows.rows[0]!.$id, {
      kind: "post",
      data: { title },
      savedBy: "studio push",
    });
    // The documented bound here is 2 + 1 s (CDN_MAX_AGE + CDN_STALE_WHILE_REVALIDATE); polled every 250 ms
    // up to 16 s, the bound plus slack for a loaded machine.
    let seen = false;
    for (let i = 0; i < 64 && !seen; i++) {
      seen = (await (await fetch(nginx.url + page)).text()).includes(title);
      if (!seen) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(seen).toBe(true);
    expect(purges.flat()).toEqual(expect.arrayContaining([`post:${SLUG}`, "list:post"]));
  });
});
