/**
 * SECURITY C41 (the Gemini key stays on the server) and ARCHITECTURE decision 2 (the browser never holds a
 * secret or talks to Appwrite): nothing in the built client bundle names a server secret or ships a
 * server-only library. The global setup has just built `build/` from the current sources.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  adminModulesIn,
  publicRouteBundles,
  readChunkModules,
  readClientManifest,
} from "../../scripts/bench/lib/client-bundle.ts";
import ar from "../../web/i18n/locales/ar.json";
import en from "../../web/i18n/locales/en.json";
import { ROOT } from "../helpers/fixtures.ts";

async function clientFiles(): Promise<{ file: string; text: string }[]> {
  const dir = path.join(ROOT, "build", "client");
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && /\.(js|css|html|json|map)$/.test(e.name));
  return Promise.all(
    files.map(async (e) => ({
      file: path.join(e.parentPath, e.name),
      text: await readFile(path.join(e.parentPath, e.name), "utf8"),
    })),
  );
}

describe("the client bundle", () => {
  it("has JavaScript to check", async () => {
    expect((await clientFiles()).filter((f) => f.file.endsWith(".js")).length).toBeGreaterThan(3);
  });

  // The last one marks a React development build, which must never reach visitors.
  it.each([
    "GEMINI_API_KEY",
    "APPWRITE_API_KEY",
    "X-Appwrite-Key",
    "generativelanguage.googleapis.com",
    "Download the React DevTools",
  ])("never contains %s", async (needle) => {
    const hits = (await clientFiles()).filter((f) => f.text.includes(needle)).map((f) => path.relative(ROOT, f.file));
    expect(hits).toEqual([]);
  });

  // A string each server-only library carries in its code, minified or not.
  it.each([
    ["node-appwrite", "X-Appwrite-Project"],
    ["@google/genai", "x-goog-api-key"],
    ["prettier", "printWidth"],
    ["jsdom", "JSDOM"],
    ["sharp", "limitInputPixels"],
    ["@zxcvbn-ts/language-common", "trustno1"],
  ])("ships no server-only library (%s)", async (_library, marker) => {
    const hits = (await clientFiles()).filter((f) => f.text.includes(marker)).map((f) => path.relative(ROOT, f.file));
    expect(hits).toEqual([]);
  });
});

// Issue #8: visitors never download the admin. Module lists come from build/client-modules.json (vite.config.ts).
describe("the JavaScript of public pages", () => {
  const buildDir = path.join(ROOT, "build");

  it("holds no admin-only module (admin routes and components, server/admin, Prettier)", async () => {
    // Given the files each public page loads on a first visit, and the source modules in each chunk
    const { manifest, lazy } = await readClientManifest(buildDir);
    const chunkModules = await readChunkModules(buildDir);
    const bundles = publicRouteBundles(manifest, lazy);
    expect(bundles.map((b) => b.id)).toEqual(expect.arrayContaining(["routes/public/home", "routes/public/post"]));
    for (const bundle of bundles) {
      expect(bundle.files.filter((f) => f.endsWith(".js") && !(f in chunkModules))).toEqual([]);
    }
    // When they are searched for admin-only modules, then none is found
    const hits = bundles.flatMap((b) => adminModulesIn(b.files, chunkModules).map((h) => `${b.pattern}: ${h.module}`));
    expect(hits).toEqual([]);
  });

  // Issue 18: texts reach the browser as loader data (one language, the page's namespaces), never as JavaScript.
  it.each([
    ["i18next", "i18next"],
    ["the English messages", en.about.philosophyQuote],
    ["the Arabic messages", ar.about.philosophyQuote],
    ["the admin's messages", en.admin.ai.failedPost],
  ])("ships no %s in any chunk", async (_what, marker) => {
    const hits = (await clientFiles())
      .filter((f) => f.file.endsWith(".js") && f.text.includes(marker))
      .map((f) => path.relative(ROOT, f.file));
    expect(hits).toEqual([]);
  });

  it("is checked by a rule that does find the admin's own modules in the admin's chunks", async () => {
    const { manifest } = await readClientManifest(buildDir);
    const chunkModules = await readChunkModules(buildDir);
    const admin = manifest.routes["routes/admin/layout"]!;
    const files = [admin.module, ...(admin.imports ?? [])].map((url) => url.replace(/^\//, ""));
    expect(adminModulesIn(files, chunkModules).map((h) => h.module)).toContain("web/routes/admin/layout.tsx");
  });
});
