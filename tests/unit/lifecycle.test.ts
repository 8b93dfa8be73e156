/** Issue #16: the lifecycle's pure rules (states, due times, permissions) and shared preview tokens. */
import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkPreview,
  loadPreviewSecret,
  PREVIEW_LINK_TTL_MS,
  readPreview,
  signPreview,
} from "../../lib/publish/preview-link.ts";
import { statePermissions } from "../../lib/publish/writer.ts";
import { dueTimeOf, stateFor, stateOf } from "../../model/lifecycle.ts";

const SECRET = "s".repeat(40);
const NOW = Date.parse("2026-11-24T12:00:00Z");

describe("states", () => {
  it("makes a draft a draft whatever its date, a future due time scheduled, and the rest published", () => {
    expect(stateFor(true, "2099-01-01", NOW)).toBe("draft");
    expect(stateFor(false, "2026-11-25", NOW)).toBe("scheduled");
    expect(stateFor(false, "2026-11-24T11:59:59Z", NOW)).toBe("published");
    expect(stateFor(false, null, NOW)).toBe("published");
  });

  it("takes an explicit publishAt before a post's publishedDate, and reads a missing status as published", () => {
    expect(dueTimeOf("post", { publishedDate: "2026-01-01", publishAt: "2026-12-01" })).toBe("2026-12-01");
    expect(dueTimeOf("post", { publishedDate: "2026-01-01" })).toBe("2026-01-01");
    expect(dueTimeOf("venture", { name: "x" })).toBeNull();
    // A translation's date says when it was translated, not when the item goes public.
    expect(dueTimeOf("venture", { name: "x", translatedAt: "2099-01-01" })).toBeNull();
    expect(dueTimeOf("post", { publishedDate: "2026-01-01", translatedAt: "2099-01-01" })).toBe("2026-01-01");
    expect(stateOf({})).toBe("published");
    expect(stateOf({ status: "draft" })).toBe("draft");
  });

  it("derives the read permission from the state and keeps the owner's", () => {
    const owner = ['read("any")', 'update("user:u1")', 'delete("user:u1")'];
    expect(statePermissions(owner, "draft")).toEqual(['read("user:u1")', 'update("user:u1")', 'delete("user:u1")']);
    expect(statePermissions(statePermissions(owner, "scheduled"), "published")).toEqual(owner);
  });

  it("lets only a draft's editors read it, never every signed-in user (issue #28 item 3)", () => {
    const item = ['read("users")', 'update("user:u1")', 'update("team:studio")', 'delete("team:studio")'];
    const draft = statePermissions(item, "draft");
    expect(draft.filter((p) => p.startsWith("read("))).toEqual(['read("user:u1")', 'read("team:studio")']);
    expect(statePermissions(['update("any")', 'read("any")'], "scheduled")).toEqual(['update("any")']);
  });
});

describe("preview tokens", () => {
  const ITEM = { kind: "post", documentId: "doc1", locale: "en", key: "0" } as const;

  it("accepts its own token until it expires, for that document and locale only (issue #28 item 4)", () => {
    const token = signPreview(SECRET, ITEM, NOW);
    expect(readPreview(SECRET, "post", "en", token, NOW + PREVIEW_LINK_TTL_MS - 1000)).toEqual({
      check: "valid",
      documentId: "doc1",
      key: "0",
    });
    expect(checkPreview(SECRET, "post", "en", token, NOW + PREVIEW_LINK_TTL_MS + 1000)).toBe("expired");
    expect(checkPreview(SECRET, "post", "ar", token, NOW)).toBe("invalid");
    expect(checkPreview(SECRET, "venture", "en", token, NOW)).toBe("invalid");
    // Another document or another key (a revoked link) with the same signature is refused.
    const [expires, signature] = token.split(".") as [string, string];
    expect(checkPreview(SECRET, "post", "en", `${expires}.${signature}.0.doc2`, NOW)).toBe("invalid");
    expect(checkPreview(SECRET, "post", "en", `${expires}.${signature}.abc123.doc1`, NOW)).toBe("invalid");
  });

  it("refuses a tampered expiry or signature, another secret and a malformed token", () => {
    const token = signPreview(SECRET, ITEM, NOW);
    const [expires, signature] = token.split(".") as [string, string];
    expect(checkPreview(SECRET, "post", "en", `${Number(expires) + 3600}.${signature}.0.doc1`, NOW)).toBe("invalid");
    const flipped = signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A");
    expect(checkPreview(SECRET, "post", "en", `${expires}.${flipped}.0.doc1`, NOW)).toBe("invalid");
    expect(checkPreview("t".repeat(40), "post", "en", token, NOW)).toBe("invalid");
    expect(checkPreview(SECRET, "post", "en", "garbage", NOW)).toBe("invalid");
    expect(checkPreview(SECRET, "post", "en", null, NOW)).toBe("invalid");
  });

  it("keeps a generated secret in the data folder (0600), reuses it, and prefers the environment's", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "preview-secret-"));
    const first = await loadPreviewSecret(undefined, dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(path.join(dir, "preview-secret"))).mode & 0o777).toBe(0o600);
    expect(await loadPreviewSecret(undefined, dir)).toBe(first);
    expect(await loadPreviewSecret(SECRET, dir)).toBe(SECRET);
    await expect(loadPreviewSecret("short", dir)).rejects.toThrow(/at least 32 characters/);
    // Rotating: a new file revokes every link signed with the old secret.
    await writeFile(path.join(dir, "preview-secret"), "r".repeat(64));
    expect(await loadPreviewSecret(undefined, dir)).toBe("r".repeat(64));
    expect((await readFile(path.join(dir, "preview-secret"), "utf8")).trim()).not.toBe(first);
  });
});
