import { describe, expect, it } from "vitest";
import { ConfigError, configIssues } from "../../lib/config.ts";
import { loadDeployConfig, productionConfig } from "../../lib/deploy-config.ts";

const REAL = {
  APPWRITE_ENDPOINT: "https://cloud.appwrite.io/v1",
  APPWRITE_PROJECT_ID: "p",
  APPWRITE_API_KEY: "k",
  SITE_URL: "https://example.com",
};

describe("productionConfig (issue #32 item 1)", () => {
  it("lists every problem at once, with what to set (exit 3)", () => {
    const error = (() => {
      try {
        productionConfig({ NODE_ENV: "production", PORT: "x", CDN_PURGE_URL: "ftp://x", WEB_CONCURRENCY: "0" });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error("no error");
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain("5 problem(s)");
    for (const name of ["PORT", "WEB_CONCURRENCY", "CDN_PURGE_URL", "APPWRITE_ENDPOINT", "SITE_URL"]) {
      expect(error.message).toMatch(new RegExp(`^  ${name}: `, "m"));
    }
  });

  it("refuses the embedded default in production unless EMBEDDED_APPWRITE=1, and both at once", () => {
    expect(() => productionConfig({ NODE_ENV: "production", SITE_URL: "https://example.com" })).toThrow(
      /APPWRITE_ENDPOINT: not set/,
    );
    expect(
      productionConfig({ NODE_ENV: "production", SITE_URL: "https://example.com", EMBEDDED_APPWRITE: "1" }).deploy
        .embeddedAllowed,
    ).toBe(true);
    expect(() => productionConfig({ NODE_ENV: "production", ...REAL, EMBEDDED_APPWRITE: "1" })).toThrow(
      /EMBEDDED_APPWRITE: is 1 while APPWRITE_ENDPOINT is set/,
    );
    expect(productionConfig({ NODE_ENV: "production", ...REAL }).app.appwriteEndpoint).toBe(REAL.APPWRITE_ENDPOINT);
  });

  it("outside production, keeps the embedded default and SITE_URL optional", () => {
    expect(productionConfig({}).deploy).toEqual({
      siteUrl: undefined,
      embeddedAllowed: false,
      sharedMaxAge: 60,
      staleWhileRevalidate: 30,
      purgeUrl: undefined,
      purgeToken: undefined,
    });
  });

  it("configIssues names the endpoint's missing project and key with the schema's problems", () => {
    expect(configIssues({ APPWRITE_ENDPOINT: "https://x.example/v1", PAGE_CACHE: "maybe" })).toEqual([
      "  PAGE_CACHE: must be on or off",
      expect.stringMatching(/^ {2}APPWRITE_ENDPOINT is set, so APPWRITE_PROJECT_ID and APPWRITE_API_KEY/),
    ]);
    expect(configIssues({})).toEqual([]);
  });

  it("reads the shared-cache settings, and refuses a short purge token", () => {
    expect(loadDeployConfig({ CDN_MAX_AGE: "0", CDN_STALE_WHILE_REVALIDATE: "5" })).toMatchObject({
      sharedMaxAge: 0,
      staleWhileRevalidate: 5,
    });
    expect(() => loadDeployConfig({ CDN_PURGE_TOKEN: "short" })).toThrow(/CDN_PURGE_TOKEN: must be at least 16/);
  });
});
