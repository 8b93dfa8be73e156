/**
 * SECURITY C57 over real HTTP: the contact and community forms take at most 5 submissions a minute (and 50 a
 * day) per client IP, answer the rest 429 with the form's error state in English or Arabic (with and without
 * JavaScript), and silently drop a submission whose honeypot field is filled.
 *
 * Every request of this file comes from 127.0.0.1. The site the stack serves ignores `X-Forwarded-For`
 * (`TRUST_PROXY` off, as in C14); a second site on the same build trusts it, as behind a proxy, so that
 * requests can come from other client IPs. Both share the one in-memory limiter of the server build.
 */
import { Query } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import { DATABASE_ID, LIMITS } from "../../model/content.ts";
import { ROOT } from "../helpers/fixtures.ts";
import { markupOf, startSiteStack, Visitor, type Reply, type SiteStack } from "../helpers/site.ts";
import { SUBMISSION_MODEL } from "../../model/model.ts";

let stack: SiteStack;
let proxied: RunningSite;
beforeAll(async () => {
  stack = await startSiteStack();
  proxied = await startSite({ root: ROOT, port: 0, trustProxy: true, pageCache: false });
});
afterAll(async () => {
  await proxied?.close();
  await stack?.close();
});

const TOO_MANY = {
  en: "You have sent this form too many times. Please try again later.",
  ar: "لقد أرسلت هذا النموذج مرات كثيرة جدًا. يرجى المحاولة مرة أخرى لاحقًا.",
};
/** A 5 KB message, as in the 150 anonymous submissions. */
const LONG = "x".repeat(LIMITS.message);

type Kind = "contact" | "community";
const fields = (kind: Kind, email: string, extra: Record<string, string> = {}) =>
  kind === "contact"
    ? { name: "Spammer", email, message: LONG, ...extra }
    : { name: "Spammer", email, interest: LONG, ...extra };

/**
 * Posts a form as a browser without JavaScript would (a document request), with `X-Forwarded-For: ip` when
 * given (the client IP on the proxied site; ignored by the other).
 */
function post(site: string, pathname: string, form: Record<string, string>, ip?: string): Promise<Reply> {
  return new Visitor(site).request(pathname, {
    method: "POST",
    headers: ip ? { "X-Forwarded-For": ip } : {},
    form,
  });
}

/** How many documents of `collectionId` carry `email` (read with the API key). */
async function storedCount(collectionId: string, email: string): Promise<number> {
  const page = await stack.backend.services.databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId,
    queries: [Query.equal("email", email), Query.limit(100)],
  });
  return page.total;
}

describe("per-IP limit of the visitor forms (C57)", () => {
  it("refuses most of 60 posts from one client in a minute with 429 and the error state, storing at most 5", async () => {
    const email = "flood@example.com";
    const replies: Reply[] = [];
    for (let i = 0; i < 60; i++) {
      const kind: Kind = i % 2 === 0 ? "contact" : "community";
      const locale = i % 4 < 2 ? "en" : "ar";
      // A spoofed X-Forwarded-For changes nothing: this site does not trust it (TRUST_PROXY off).
      const reply = await post(stack.site.url, `/${locale}/${kind}`, fields(kind, email), `10.0.0.${i}`);
      replies.push(reply);
    }

    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(55);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);

    const refused = replies.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 429);
    for (const { r, i } of refused) {
      const locale = i % 4 < 2 ? "en" : "ar";
      expect(r.text).toContain(TOO_MANY[locale]);
      expect(r.text).toMatch(/role="alert"/);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(markupOf(r.text)).not.toContain(locale === "en" ? "Message Sent!" : "تم إرسال الرسالة!");
    }

    const stored =
      (await storedCount(SUBMISSION_MODEL.contactMessage.collectionId, email)) +
      (await storedCount(SUBMISSION_MODEL.communityApplication.collectionId, email));
    expect(stored).toBeLessThanOrEqual(5);
    expect(stored).toBe(statuses.filter((s) => s === 200).length);
  });

  it("ignores a spoofed X-Forwarded-For when the proxy is not trusted", async () => {
    // 127.0.0.1 used its allowance in the test above.
    const reply = await post(stack.site.url, "/en/contact", fields("contact", "spoof@example.com"), "192.0.2.77");
    expect(reply.status).toBe(429);
    expect(await storedCount(SUBMISSION_MODEL.contactMessage.collectionId, "spoof@example.com")).toBe(0);
  });

  it("keeps another client IP unaffected", async () => {
    const flooder = "198.51.100.10";
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await post(proxied.url, "/en/contact", fields("contact", "flooder@example.com"), flooder)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);

    const other = await post(proxied.url, "/ar/community", fields("community", "other@example.com"), "198.51.100.11");
    expect(other.status).toBe(200);
    expect(other.text).toContain("شكرًا لك!");
    expect(await storedCount(SUBMISSION_MODEL.communityApplication.collectionId, "other@example.com")).toBe(1);
    expect(await storedCount(SUBMISSION_MODEL.contactMessage.collectionId, "flooder@example.com")).toBe(5);
  });

  it("answers a JavaScript (fetcher) submission over the limit with 429 and the tooMany error", async () => {
    const ip = "198.51.100.12";
    const statuses: number[] = [];
    let last = "";
    for (let i = 0; i < 6; i++) {
      const reply = await post(proxied.url, "/en/contact.data", fields("contact", "fetcher@example.com"), ip);
      statuses.push(reply.status);
      last = reply.text;
    }
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(statuses[5]).toBe(429);
    expect(last).toContain("tooMany");
    expect(await storedCount(SUBMISSION_MODEL.contactMessage.collectionId, "fetcher@example.com")).toBe(5);
  });

  it("does not count invalid posts, which answer 400 as before", async () => {
    const ip = "198.51.100.13";
    for (let i = 0; i < 6; i++) {
      expect((await post(proxied.url, "/en/contact", { name: "Eve", email: "eve@", message: "x" }, ip)).status).toBe(
        400,
      );
    }
    expect((await post(proxied.url, "/en/contact", fields("contact", "valid@example.com"), ip)).status).toBe(200);
  });
});

describe("honeypot (C57)", () => {
  it("renders a field no person sees, reaches or has filled in", async () => {
    for (const pathname of ["/en/contact", "/ar/community"]) {
      const html = (await new Visitor(stack.site.url).request(pathname)).text;
      const input = /<input[^>]*name="website"[^>]*>/.exec(html)?.[0];
      expect(input).toBeDefined();
      expect(input).toMatch(/tabindex="-1"/i);
      expect(input).toMatch(/autocomplete="off"/i);
      expect(html).toMatch(
        /<div aria-hidden="true" class="sr-only"><label[^>]*>[^<]+<\/label><input[^>]*name="website"/,
      );
    }
  });

  it.each([
    ["contact", "/en/contact", "Message Sent!", SUBMISSION_MODEL.contactMessage.collectionId],
    ["community", "/ar/community", "شكرًا لك!", SUBMISSION_MODEL.communityApplication.collectionId],
  ] as const)(
    "answers a filled %s honeypot like a success and stores nothing",
    async (kind, pathname, text, collection) => {
      const email = `bot-${kind}@example.com`;
      const reply = await post(
        proxied.url,
        pathname,
        fields(kind, email, { website: "https://spam.example" }),
        `198.51.100.${kind === "contact" ? 20 : 21}`,
      );
      expect(reply.status).toBe(200);
      expect(reply.text).toContain(text);
      expect(await storedCount(collection, email)).toBe(0);
    },
  );

  it("stores a submission whose honeypot is left empty", async () => {
    const reply = await post(
      proxied.url,
      "/en/contact",
      fields("contact", "human@example.com", { website: "" }),
      "198.51.100.22",
    );
    expect(reply.status).toBe(200);
    expect(await storedCount(SUBMISSION_MODEL.contactMessage.collectionId, "human@example.com")).toBe(1);
  });
});
