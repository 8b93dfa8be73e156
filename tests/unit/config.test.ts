import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config.ts";

describe("loadConfig", () => {
  it("uses the documented defaults when nothing is set", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: "127.0.0.1",
      appwriteEndpoint: undefined,
      emulatorPort: 8787,
      projectId: undefined,
      apiKey: undefined,
      dataDir: ".data",
      openRegistration: true,
      pageCache: true,
      webConcurrency: 1,
      trustProxy: 0,
      geminiApiKey: undefined,
      geminiTextModel: "gemini-2.5-flash",
      geminiImageModel: "gemini-2.5-flash-image",
      geminiBaseUrl: undefined,
      geminiTimeoutMs: 20_000,
    });
  });

  it("reads TRUST_PROXY as a number of proxy hops: true is 1, false 0 (SECURITY C56)", () => {
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: "-1" })).toThrow(/TRUST_PROXY/);
  });

  it("names each invalid variable", () => {
    expect(() => loadConfig({ PORT: "eighty", APPWRITE_ENDPOINT: "ftp://x" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
  });

  it("requires a project and key with a real endpoint, and trims its trailing slash", () => {
    expect(() => loadConfig({ APPWRITE_ENDPOINT: "https://cloud.appwrite.io/v1" })).toThrow(
      /APPWRITE_PROJECT_ID and APPWRITE_API_KEY/,
    );
    const config = loadConfig({
      APPWRITE_ENDPOINT: "https://cloud.appwrite.io/v1/",
      APPWRITE_PROJECT_ID: "p",
      APPWRITE_API_KEY: "k",
    });
    expect(config.appwriteEndpoint).toBe("https://cloud.appwrite.io/v1");
  });

  it("turns the page cache off with PAGE_CACHE=off, on by default, and names a wrong value", () => {
    expect(loadConfig({}).pageCache).toBe(true);
    expect(loadConfig({ PAGE_CACHE: "off" }).pageCache).toBe(false);
    expect(() => loadConfig({ PAGE_CACHE: "no" })).toThrow(/PAGE_CACHE: must be on or off/);
  });

  it("runs one site process by default, WEB_CONCURRENCY of them, or one a core with auto", () => {
    expect(loadConfig({ WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
    expect(loadConfig({ WEB_CONCURRENCY: "auto" }).webConcurrency).toBe(availableParallelism());
    for (const wrong of ["0", "-1", "two", "100"]) {
      expect(() => loadConfig({ WEB_CONCURRENCY: wrong })).toThrow(/WEB_CONCURRENCY: must be auto or a number/);
    }
  });
});
