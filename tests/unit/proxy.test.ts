/**
 * SECURITY C56: `server/http/proxy.ts` reads the client's address, scheme and host with Express's `trust proxy`
 * rules for a hop count (the fast path answers before Express, so both must agree), and `site-host.ts` parses
 * and checks `Host`.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddress, forwardedHost, forwardedProtocol, proxyHops } from "../../server/http/proxy.ts";
import { checkHost, checkTarget, normalizeHost, siteHosts } from "../../server/http/site-host.ts";

describe("proxyHops", () => {
  it("reads TRUST_PROXY=true as one hop, false as none, a number as that many", () => {
    expect(proxyHops(true)).toBe(1);
    expect(proxyHops(false)).toBe(0);
    expect(proxyHops(undefined)).toBe(0);
    expect(proxyHops(3)).toBe(3);
    expect(() => proxyHops(-1)).toThrow(RangeError);
  });
});

describe("the same answers as Express with `trust proxy` set to the hop count", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const apps = [0, 1, 2, 3].map((hops) => {
      const app = express();
      app.set("trust proxy", hops);
      app.get("/", (req, res) => {
        res.json({
          express: { ip: req.ip, protocol: req.protocol, host: req.host },
          ours: {
            ip: clientAddress(req, hops),
            protocol: forwardedProtocol(req, hops),
            host: forwardedHost(req, hops),
          },
        });
      });
      return app;
    });
    server = createServer((req, res) => {
      const hops = Number(req.headers["x-test-hops"]);
      void apps[hops]!(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ask = (headers: Record<string, string>) =>
    new Promise<{ express: unknown; ours: unknown }>((resolve, reject) => {
      httpRequest(base, { headers }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve(JSON.parse(body) as { express: unknown; ours: unknown }));
      })
        .on("error", reject)
        .end();
    });

  const cases: Record<string, string>[] = [
    {},
    { "X-Forwarded-For": "203.0.113.7" },
    { "X-Forwarded-For": "10.0.0.1, 203.0.113.7" },
    { "X-Forwarded-For": "evil, 10.0.0.1 , 203.0.113.7,198.51.100.2" },
    { "X-Forwarded-For": " , ,203.0.113.7,," },
    { "X-Forwarded-For": "" },
    { "X-Forwarded-Proto": "https" },
    { "X-Forwarded-Proto": "https, http" },
    { "X-Forwarded-Host": "example.com" },
    { "X-Forwarded-Host": "example.com:8443, evil.example" },
    { "X-Forwarded-For": "1.1.1.1, 2.2.2.2", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "a.example" },
  ];
  for (const hops of [0, 1, 2, 3]) {
    it.each(cases)(`hops=${hops}: %j`, async (headers) => {
      const answer = await ask({ ...headers, "X-Test-Hops": String(hops) });
      expect(answer.ours).toEqual(answer.express);
    });
  }

  it("takes the right-most entries as trusted: with one hop the client is the last entry", async () => {
    const answer = (await ask({ "X-Forwarded-For": "6.6.6.6, 203.0.113.7", "X-Test-Hops": "1" })) as {
      ours: { ip: string };
    };
    expect(answer.ours.ip).toBe("203.0.113.7");
  });
});

describe("normalizeHost (RFC 9110 §7.2)", () => {
  it.each([
    ["example.com", "example.com"],
    ["Example.COM:080", "example.com:80"],
    ["127.0.0.1:3000", "127.0.0.1:3000"],
    ["[::1]:3000", "[::1]:3000"],
    ["[::1]", "[::1]"],
  ])("accepts %s as %s", (value, normalized) => expect(normalizeHost(value)).toBe(normalized));

  it.each(["", "a b", "x:99999", "[::1", "x:", "a@b", "%65vil.example", "x/y", "x:1:2", "::1", "x\ty"])(
    "refuses %j",
    (value) => expect(normalizeHost(value)).toBeNull(),
  );
});

describe("siteHosts and checkHost", () => {
  const fake = (headers: Record<string, string>) =>
    ({
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
      socket: {},
    }) as never;

  it("answers for SITE_URL's host (with or without its default port) and the listening address", () => {
    const hosts = siteHosts({ siteUrl: "https://Studio.example/", listenHost: "127.0.0.1", port: 3000 });
    for (const host of ["studio.example", "studio.example:443", "127.0.0.1:3000", "localhost:3000", "[::1]:3000"]) {
      expect(hosts.has(host), host).toBe(true);
    }
    expect(hosts.has("studio.example:80")).toBe(false);
    expect(hosts.has("127.0.0.1")).toBe(false);
  });

  it("gives the origin, 421 for a foreign host and 400 for a malformed one or an unknown protocol", () => {
    const hosts = siteHosts({ listenHost: "127.0.0.1", port: 3000 });
    expect(checkHost(fake({ Host: "localhost:3000" }), 0, hosts)).toEqual({
      ok: true,
      origin: "http://localhost:3000",
    });
    expect(checkHost(fake({ Host: "evil.example" }), 0, hosts)).toMatchObject({ ok: false, status: 421 });
    expect(checkHost(fake({ Host: "a b" }), 0, hosts)).toMatchObject({ ok: false, status: 400 });
    expect(checkHost(fake({}), 0, hosts)).toMatchObject({ ok: false, status: 400 });
    const behind = siteHosts({ siteUrl: "https://studio.example", listenHost: "127.0.0.1", port: 3000 });
    const proxied = { Host: "127.0.0.1:3000", "X-Forwarded-Host": "studio.example", "X-Forwarded-Proto": "https" };
    expect(checkHost(fake(proxied), 1, behind)).toEqual({ ok: true, origin: "https://studio.example" });
    expect(checkHost(fake(proxied), 0, behind)).toEqual({ ok: true, origin: "http://127.0.0.1:3000" });
    expect(checkHost(fake({ ...proxied, "X-Forwarded-Proto": "ftp" }), 1, behind)).toMatchObject({ status: 400 });
  });
});

describe("checkTarget (RFC 9112 §3.2, SECURITY C72)", () => {
  const hosts = new Set(["localhost:3000", "example.com", "example.com:443"]);

  it("serves origin-form as is, and absolute-form for the site's hosts as its path with the authority", () => {
    expect(checkTarget("GET", "/en/blog?page=2", hosts)).toEqual({ ok: true, path: "/en/blog?page=2" });
    expect(checkTarget("GET", "http://LOCALHOST:3000/en?x=1", hosts)).toEqual({
      ok: true,
      path: "/en?x=1",
      authority: "localhost:3000",
    });
    expect(checkTarget("GET", "https://example.com", hosts)).toEqual({ ok: true, path: "/", authority: "example.com" });
    expect(checkTarget("GET", "https://example.com?q", hosts)).toEqual({
      ok: true,
      path: "/?q",
      authority: "example.com",
    });
  });

  it("answers another authority 421 and a malformed target 400", () => {
    for (const url of ["http://evil.example/en", "http://localhost:3001/en", "https://example.com:8443/"]) {
      expect(checkTarget("GET", url, hosts), url).toMatchObject({ ok: false, status: 421 });
    }
    for (const url of [
      "ftp://example.com/",
      "http://user@example.com/",
      "http:///en",
      "http://example.com#f",
      "*",
      "en",
      "",
      "/en/%",
      "/%E0%A4",
    ]) {
      expect(checkTarget("GET", url, hosts), url).toMatchObject({ ok: false, status: 400 });
    }
  });

  it("redirects a GET of a path starting with // or /\\ to one slash, and refuses other methods", () => {
    expect(checkTarget("GET", "//evil.example/x", hosts)).toEqual({ ok: "redirect", location: "/evil.example/x" });
    expect(checkTarget("HEAD", "/\\\\evil.example", hosts)).toEqual({ ok: "redirect", location: "/evil.example" });
    expect(checkTarget("GET", "http://example.com//evil.example", hosts)).toEqual({
      ok: "redirect",
      location: "/evil.example",
    });
    expect(checkTarget("POST", "//x", hosts)).toMatchObject({ ok: false, status: 400 });
  });
});
