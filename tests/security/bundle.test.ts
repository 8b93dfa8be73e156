/**
 * SECURITY C41 (the Gemini key stays on the server) and ARCHITECTURE decision 2 (the browser never holds a
 * secret or talks to Appwrite): nothing in the built client bundle names a server secret or ships a
 * server-only library. The global setup has just built `build/` from the current sources.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
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
