/**
 * SECURITY C28 (ASVS v5 16.5.1): a loader that fails in the production build answers 500 with the friendly
 * error page and nothing of the failure: no stack frames, file paths, Appwrite endpoint or key, neither in the
 * HTML, nor in the headers, nor in the single-fetch data a client navigation reads. The failure is forced from
 * outside: a fake Appwrite on loopback whose answers carry those secrets. Its own file: the site reads the
 * Appwrite settings once per process.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { startSite, type RunningSite } from "../../server/serve-site.ts";
import en from "../../web/i18n/locales/en.json";
import ar from "../../web/i18n/locales/ar.json";
import { ROOT } from "../helpers/fixtures.ts";

const KEY = "standard_c28-secret-api-key-7f3a9d";
const FRAME = "/srv/app/x.ts:12:3";
let mode: "error" | "malformed" = "error";
let fake: Server;
let endpoint: string;
let site: RunningSite;
let logged: MockInstance<typeof console.error>;

beforeAll(async () => {
  fake = createServer((req, res) => {
    res.setHeader("Content-Type", "application/json");
    const leak = `at loadDocuments (${FRAME}) calling ${endpoint}${req.url ?? ""} with key ${KEY}`;
    if (mode === "error") {
      res.statusCode = 400;
      res.end(JSON.stringify({ message: `Invalid query: ${leak}`, code: 400, type: "general_query_invalid" }));
    } else {
      res.end(`{"total": 1, "documents": [ ${leak}`); // not JSON
    }
  });
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  process.env.APPWRITE_ENDPOINT = endpoint;
  process.env.APPWRITE_PROJECT_ID = "c28";
  process.env.APPWRITE_API_KEY = KEY;
  logged = vi.spyOn(console, "error").mockImplementation(() => {});
  site = await startSite({ root: ROOT, port: 0 });
});
afterAll(async () => {
  logged.mockRestore();
  await site.close();
  fake.closeAllConnections();
  await new Promise((resolve) => fake.close(resolve));
});

/** Anything that would tell an attacker about the server: the fake's secrets, stack frames, local paths. */
function expectNothingLeaked(text: string, where: string) {
  for (const secret of [KEY, endpoint, "127.0.0.1:" + new URL(endpoint).port, FRAME, "/srv/app", "loadDocuments"]) {
    expect(text, `${where} contains ${secret}`).not.toContain(secret);
  }
  expect(text, where).not.toMatch(/\bat \S+ \(|\/work\/|node_modules|\.ts:\d+|\.js:\d+:\d+|Bad string|SyntaxError/);
}

describe("a failing loader in production (C28)", () => {
  // An Appwrite error (an Error) fails the loader: 500. An answer that is not JSON is a failing Appwrite: 503.
  it.each([
    ["error", "/en", en, 500],
    ["error", "/ar/blog", ar, 500],
    ["malformed", "/en/ventures", en, 503],
    ["malformed", "/ar", ar, 503],
  ] as const)(
    "answers a %s reply from Appwrite on %s with the generic error page",
    async (reply, path, texts, status) => {
      mode = reply;
      const calls = logged.mock.calls.length;
      const response = await fetch(site.url + path);
      const html = await response.text();

      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(html).toContain(texts.general.error);
      expectNothingLeaked(html, `${path} body`);
      for (const [name, value] of response.headers) expectNothingLeaked(value, `${path} header ${name}`);
      // The details are for the operator: the server logged the error.
      expect(logged.mock.calls.length).toBeGreaterThan(calls);
    },
  );

  it("shows the friendly error screen, not the framework's, on a page without its own error text", async () => {
    mode = "error";
    const html = await (await fetch(`${site.url}/en`)).text();
    expect(html).toContain(`<h1 class="text-2xl font-bold">${en.general.unexpected}</h1>`);
    expect(html).toContain(en.general.error);
  });

  it("sends nothing of the failure in the data of a client-side navigation either", async () => {
    for (const reply of ["error", "malformed"] as const) {
      mode = reply;
      const response = await fetch(`${site.url}/en/blog.data`);
      const body = await response.text();
      if (reply === "error") expect(body).toContain("Unexpected Server Error");
      expectNothingLeaked(body, `/en/blog.data (${reply})`);
    }
  });
});
