/**
 * Issue #8 item 2: public pages come from the server's page cache, with a fresh CSP nonce per response, HTTP
 * validation for signed-out visitors, nothing cached for signed-in ones, and every write (admin or anywhere
 * else, through Appwrite's realtime feed) visible on the next request.
 */
import { request as httpRequest } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { pageCacheLive, startSiteStack, Visitor, type SiteStack } from "../helpers/site.ts";
import { CONTENT_MODEL } from "../../model/model.ts";

let stack: SiteStack;
beforeAll(async () => {
  stack = await startSiteStack();
  await pageCacheLive(stack.site); // the cache serves only once the change feed is live
});
afterAll(async () => stack.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(stack.site.url + path, { headers, redirect: "manual" });
const nonceOf = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy")!)?.[1];

/** A raw GET (fetch would decode the body itself). */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(stack.site.url + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("cached public pages", () => {
  it("give every response its own nonce, in the CSP and in every script, and otherwise the same page", async () => {
    const first = await get("/en");
    const second = await get("/en");
    const [a, b] = [nonceOf(first)!, nonceOf(second)!];
    expect(a).not.toBe(b);
    const [htmlA, htmlB] = [await first.text(), await second.text()];
    expect(htmlA).toContain(`nonce="${a}"`);
    expect(htmlA).not.toContain(b);
    expect(htmlB.split(b).join("")).toBe(htmlA.split(a).join(""));
  });

  it("are revalidated by signed-out browsers (max-age=0), kept by shared caches (s-maxage), a weak ETag, and a 304 without a CSP", async () => {
    const page = await get("/ar/blog");
    expect(page.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=30");
    expect(page.headers.get("vary")).toMatch(/Cookie/);
    const etag = page.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    const again = await get("/ar/blog", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-security-policy")).toBeNull();
    expect(await again.text()).toBe("");
  });

  it("come gzipped when the browser accepts it, and decode to the page", async () => {
    await get("/en/blog"); // stored
    const { headers, body } = await rawGet("/en/blog", { "Accept-Encoding": "gzip, deflate, br" });
    expect(headers["content-encoding"]).toBe("gzip");
    const html = gunzipSync(body).toString();
    expect(html).toContain("</html>");
    expect(body.length).toBeLessThan(Buffer.byteLength(html) / 3);
  });

  it("are never cached for a signed-in visitor (a made-up cookie is a guest: tests/security/cache-bypass.test.ts)", async () => {
    const visitor = new Visitor(stack.site.url);
    expect((await visitor.register("page-cache-signed-in@example.com")).status).toBe(302);
    const page = await visitor.request("/en");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.headers.get("etag")).toBeNull();
  });

  it("show a write made around the site (studio, the console) on the next request", async () => {
    expect(await (await get("/en/blog")).text()).not.toContain("Retitled by the console");
    const { documents } = await stack.backend.services.databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
    });
    const post = documents.find((d) => d["slug"] === "join-learn-build-earn")!;
    await stack.backend.services.databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: CONTENT_MODEL.post.collectionId,
      documentId: post.$id,
      data: { title: "Retitled by the console" },
    });
    expect(await (await get("/en/blog")).text()).toContain("Retitled by the console");
    expect(await (await get("/en/blog/join-learn-build-earn")).text()).toContain("Retitled by the console");
  });

  it("are dropped when an admin mutation finishes", async () => {
    await get("/en");
    expect(stack.site.pages!.size).toBeGreaterThan(0);
    const logout = await fetch(`${stack.site.url}/admin/logout`, {
      method: "POST",
      headers: { Origin: stack.site.url },
      redirect: "manual",
    });
    await logout.text();
    expect(stack.site.pages!.size).toBe(0);
  });
});
