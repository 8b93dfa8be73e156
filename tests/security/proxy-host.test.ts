/**
 * SECURITY C56 (issue 13 item 4): proxy hops and the Host header, over real HTTP.
 * - With `TRUST_PROXY=1` the client IP is the right-most `X-Forwarded-For` entry (the one the proxy appended),
 *   so a client writing its own entries cannot get past the ten sign-ups an hour (C14).
 * - A request naming a host that is not the site's gets 421, before the page cache and before rendering, so no
 *   page links to the attacker's host; a malformed `Host` gets 400, and nothing is logged.
 * - SECURITY C72 (issue #26 item 5): an absolute-form request target (`GET http://evil.example/en HTTP/1.1`)
 *   names the host instead of `Host`: the same rule applies to it (421, 400), never a 500, never a page with
 *   the foreign host; a path starting with `//` is redirected; a bad request logs one line at most.
 * - A proxy's pooled connections: the site keeps an idle connection open longer than nginx's upstream keepalive
 *   (60 s), so it never closes one the proxy is sending on (a 502 for the visitor).
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KEEP_ALIVE_MS, startSite, type RunningSite } from "../../server/serve-site.ts";
import { ROOT } from "../helpers/stack.ts";
import { pageCacheLive, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";

let stack: SiteStack;
/** The same site behind one trusted proxy (`TRUST_PROXY=true`, that is 1). */
let proxied: RunningSite;
beforeAll(async () => {
  stack = await startSiteStack();
  proxied = await startSite({ root: ROOT, port: 0, trustProxy: true }); // TRUST_PROXY=true: one hop
  await pageCacheLive(stack.site, "/en/blog"); // the cache serves only once the change feed is live
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

/** Sends `head` (a request line and headers, without the blank line) on a raw socket; the reply as read. */
function rawRequest(port: number, head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        headers: text.slice(0, split),
        body: text.slice(split + 4),
      });
    });
  });
}

/** Runs `send` and returns the lines the site wrote to the console or stderr meanwhile. */
async function loggedDuring(send: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => lines.push(...args.map(String).join(" ").split("\n").filter(Boolean));
  const spies = [
    vi.spyOn(console, "error").mockImplementation(keep),
    vi.spyOn(console, "warn").mockImplementation(keep),
    vi.spyOn(console, "log").mockImplementation(keep),
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      keep(chunk);
      return true;
    }),
  ];
  try {
    await send();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines;
}

describe("absolute-form request targets (C72)", () => {
  const port = () => stack.site.port;
  const own = () => `localhost:${port()}`;

  it("answers a foreign authority with 421, on pages, feeds and the sitemap, logging one line at most", async () => {
    for (const path of ["/en", "/en/blog", "/ar/about", "/en/rss.xml", "/sitemap.xml", "/robots.txt"]) {
      for (const authority of ["evil.example", `evil.example:${port()}`, `EVIL.example:${port()}`]) {
        let reply = { status: 0, headers: "", body: "" };
        const logged = await loggedDuring(async () => {
          reply = await rawRequest(port(), `GET http://${authority}${path} HTTP/1.1\r\nHost: ${own()}`);
        });
        expect(reply.status, `${authority}${path}`).toBe(421);
        expect(reply.headers + reply.body).not.toMatch(/evil\.example/i);
        expect(logged.length, logged.join("\n")).toBeLessThanOrEqual(1);
      }
    }
  });

  it("serves the site's own authority as the origin-form path, with that host in every link", async () => {
    const page = await rawRequest(port(), `GET http://${own()}/en/blog HTTP/1.1\r\nHost: ${own()}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`href="http://${own()}/en/blog"`);
    // The target's authority replaces Host (RFC 9112 §3.2.2): a foreign Host beside it is not used.
    const sitemap = await rawRequest(
      port(),
      `GET http://127.0.0.1:${port()}/sitemap.xml HTTP/1.1\r\nHost: evil.example`,
    );
    expect(sitemap.status).toBe(200);
    expect(sitemap.body).toContain(`http://127.0.0.1:${port()}/`);
    expect(sitemap.body).not.toContain("evil.example");
  });

  it("answers a malformed target (scheme, authority, form, percent-encoding) with 400, never a 500, logging one line at most", async () => {
    for (const target of [
      `gopher://${own()}/en`,
      "http://a@evil.example/en",
      "http:///en",
      `http://${own()}#x`,
      "*",
      "en/blog",
      "/en/%",
      "/en/blog/%ZZ",
      "/%E0%A4%A",
    ]) {
      let reply = { status: 0, headers: "", body: "" };
      const logged = await loggedDuring(async () => {
        reply = await rawRequest(port(), `GET ${target} HTTP/1.1\r\nHost: ${own()}`);
      });
      expect(reply.status, target).toBe(400);
      expect(logged.length, logged.join("\n")).toBeLessThanOrEqual(1);
    }
  });

  it("redirects a path starting with // to the same path on this site, logging one line at most", async () => {
    for (const [target, location] of [
      ["//x", "/x"],
      ["//evil.example/en", "/evil.example/en"],
      ["///en/blog?page=2", "/en/blog?page=2"],
      ["/\\evil.example", "/evil.example"],
    ]) {
      let reply = { status: 0, headers: "", body: "" };
      const logged = await loggedDuring(async () => {
        reply = await rawRequest(port(), `GET ${target} HTTP/1.1\r\nHost: ${own()}`);
      });
      expect(reply.status, target).toBe(301);
      expect(reply.headers).toContain(`Location: ${location}\r\n`);
      expect(reply.body).not.toContain("evil.example");
      expect(logged.length, logged.join("\n")).toBeLessThanOrEqual(1);
    }
    expect((await rawRequest(port(), `POST //x HTTP/1.1\r\nHost: ${own()}\r\nContent-Length: 0`)).status).toBe(400);
  });
});

describe("a proxy's pooled connections", () => {
  it("announces Keep-Alive: timeout=65, longer than nginx's 60 s upstream keepalive, on every kind of answer", async () => {
    const asset = /(\/assets\/[^"]+\.js)"/.exec(await (await fetch(`${stack.site.url}/en`)).text())?.[1];
    expect(asset).toBeDefined();
    for (const path of ["/en", "/en/blog", asset!, "/healthz", "/no-such-page", "/en/login"]) {
      const reply = await rawGet(stack.site.url, path, { connection: "keep-alive" });
      expect(reply.headers["keep-alive"], path).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    }
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
  });
});
