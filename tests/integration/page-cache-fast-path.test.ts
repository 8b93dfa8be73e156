/**
 * Issue #33 item 3: a page-cache hit is answered before Express (`CachedPages.serveFromCache`, laid out once
 * per stored page by `server/http/page-hit.ts`). Given two sites on one backend, one answering hits before
 * Express and one sending every request through Express (`fastPath: false`), when each is asked the same
 * thing, then both answer the same status, the same headers and the same page (only the nonce and the port in
 * absolute links differ; an encoding's framing may differ: `compression` streams its gzip, the fast path
 * splices a stored one). And what must not get a stored page (a real sign-in, a POST, a preview link, a query
 * the page does not read) does not get one from the fast path either.
 */
import { request as httpRequest } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { pageCacheLive, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";
import { ROOT } from "../helpers/stack.ts";

let stack: SiteStack;
let viaExpress: RunningSite;
beforeAll(async () => {
  stack = await startSiteStack();
  viaExpress = await startSite({ root: ROOT, port: 0, fastPath: false });
  await pageCacheLive(stack.site);
  await pageCacheLive(viaExpress);
});
afterAll(async () => {
  await viaExpress.close();
  await stack.close();
});

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A raw request: headers as sent (names lower-cased by Node), body as sent (not decoded). */
function raw(site: RunningSite, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(site.url + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) flat[name] = String(value);
        resolve({ status: res.statusCode!, headers: flat, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** Per response or per connection: never compared. */
const FRAMING = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/** Status, headers and decoded body with the nonce and the site's port written the same way. */
function comparable(site: RunningSite, reply: Raw, compareLength: boolean) {
  const nonce = /'nonce-([^']+)'/.exec(reply.headers["content-security-policy"] ?? "")?.[1];
  const same = (text: string) => {
    let out = text.split(`:${site.port}`).join(":PORT");
    if (nonce) out = out.split(nonce).join("NONCE");
    return out;
  };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers)) {
    if (!FRAMING.has(name) || (compareLength && name === "content-length")) headers[name] = same(value);
  }
  // A hash of the page, whose absolute links hold the port: each site's own, checked by the 304 below.
  if (headers.etag) headers.etag = headers.etag.replace(/^W\/"[\w-]+"$/, 'W/"HASH"');
  const decoded = reply.headers["content-encoding"] === "gzip" ? gunzipSync(reply.body) : reply.body;
  return { status: reply.status, headers, body: same(decoded.toString()) };
}

/** Asks both sites twice (the first may store the page) and compares the second answers. */
async function bothAnswer(path: string, headers: Record<string, string> = {}, method = "GET") {
  const fast = await raw(stack.site, path, headers, method);
  const slow = await raw(viaExpress, path, headers, method);
  return { fast, slow };
}

describe("a cache hit before Express", () => {
  it("answers a browser (gzip) with the headers and page the Express path sends", async () => {
    const browser = { "Accept-Encoding": "gzip, deflate, br", Cookie: "_ga=GA1.1.16956; theme=dark" };
    for (const path of ["/en", "/ar", "/en/blog", "/ar/ventures"]) {
      await bothAnswer(path, browser); // stored
      const rendersBefore = stack.site.stats.renders;
      const { fast, slow } = await bothAnswer(path, { ...browser, "Accept-Encoding": "gzip" });
      expect(stack.site.stats.renders, `${path} was a hit`).toBe(rendersBefore);
      expect(fast.headers["content-encoding"]).toBe("gzip");
      expect(comparable(stack.site, fast, false), path).toEqual(comparable(viaExpress, slow, false));
      expect(fast.headers["content-security-policy"]).not.toBe(slow.headers["content-security-policy"]);
    }
  });

  it("answers identity, HEAD and a conditional request byte for byte as the Express path does", async () => {
    await bothAnswer("/en/blog");
    const identity = await bothAnswer("/en/blog");
    expect(identity.fast.headers["content-encoding"]).toBeUndefined();
    expect(comparable(stack.site, identity.fast, true)).toEqual(comparable(viaExpress, identity.slow, true));
    expect(identity.fast.body.length).toBe(Number(identity.fast.headers["content-length"]));

    const head = await bothAnswer("/en/blog", {}, "HEAD");
    expect(head.fast.body.length).toBe(0);
    expect(comparable(stack.site, head.fast, true)).toEqual(comparable(viaExpress, head.slow, true));
    expect(head.fast.headers["content-length"]).toBe(identity.fast.headers["content-length"]);

    const conditional = {
      fast: await raw(stack.site, "/en/blog", { "If-None-Match": `"other", ${identity.fast.headers.etag}` }),
      slow: await raw(viaExpress, "/en/blog", { "If-None-Match": `"other", ${identity.slow.headers.etag}` }),
    };
    expect(conditional.fast.status).toBe(304);
    expect(conditional.fast.headers["content-security-policy"]).toBeUndefined();
    expect(comparable(stack.site, conditional.fast, true)).toEqual(comparable(viaExpress, conditional.slow, true));
  });

  it("gives each of 120 concurrent hits its own nonce, the same in its CSP and in its body (buffers are reused)", async () => {
    await raw(stack.site, "/en");
    const replies = await Promise.all(
      Array.from({ length: 120 }, (_, n) => raw(stack.site, "/en", n % 2 ? { "Accept-Encoding": "gzip" } : {})),
    );
    const nonces = new Set<string>();
    for (const reply of replies) {
      const nonce = /'nonce-([^']+)'/.exec(reply.headers["content-security-policy"]!)![1]!;
      nonces.add(nonce);
      const html = (reply.headers["content-encoding"] === "gzip" ? gunzipSync(reply.body) : reply.body).toString();
      expect(html.split(`nonce="${nonce}"`).length).toBeGreaterThan(3);
      expect(html.match(/nonce="[^"]+"/g)!.every((attribute) => attribute === `nonce="${nonce}"`)).toBe(true);
    }
    expect(nonces.size).toBe(120);
  });

  it("keeps a query the page reads in the key: each tab its own page", async () => {
    const tabs = ["/en/services?tab=1", "/en/services?tab=2"];
    for (const path of tabs) await bothAnswer(path);
    const [one, two] = await Promise.all(tabs.map((path) => raw(stack.site, path)));
    expect(comparable(stack.site, one!, true).body).not.toBe(comparable(stack.site, two!, true).body);
    for (const path of tabs) {
      const { fast, slow } = await bothAnswer(path);
      expect(comparable(stack.site, fast, true), path).toEqual(comparable(viaExpress, slow, true));
    }
  });

  it("never answers a real sign-in, a POST or a preview link from the cache", async () => {
    await raw(stack.site, "/en"); // stored
    const visitor = new Visitor(stack.site.url);
    expect((await visitor.register("fast-path-signed-in@example.com")).status).toBe(302);
    const signedIn = await visitor.request("/en");
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(signedIn.headers.get("etag")).toBeNull();

    const post = await raw(stack.site, "/en", { "Content-Length": "0" }, "POST");
    expect(post.headers.etag).toBeUndefined();
    expect(post.status).not.toBe(200);

    const post1 = /href="(\/en\/blog\/[^"?]+)"/.exec((await raw(stack.site, "/en/blog")).body.toString())![1]!;
    await raw(stack.site, post1); // stored
    // A well-formed token not signed for this item (tests/security/cache-bypass.test.ts makes them the same way).
    const token = `${Math.floor(Date.now() / 1000) + 3600}.${"A".repeat(43)}.0.d1`;
    await raw(stack.site, `${post1}?preview=${token}`); // the first token makes the server read the secret
    const preview = await raw(stack.site, `${post1}?preview=${token}`);
    expect(preview.status).toBe(302);
    expect(preview.headers.location).toBe(post1);
    const unread = await raw(stack.site, `${post1}?utm_source=x`);
    expect(unread.status).toBe(301);
    expect(unread.headers.location).toBe(post1);
  });
});
