/**
 * Shared preview links (issue #16 item 3): a draft or scheduled item's public URL with `?preview=<token>`,
 * which opens it signed-out until the token expires (7 days). The token is `<expiry>.<signature>`: the expiry
 * in seconds since the epoch and an HMAC-SHA-256 (RFC 2104) of the kind, slug and expiry under the site's
 * preview secret, base64url. Rotating the secret revokes every link. Signatures are compared in constant time.
 *
 * The secret is kept like the API key: `PREVIEW_SECRET` in the environment, else one generated once and kept
 * in `DATA_DIR/preview-secret` (mode 0600).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ContentKind } from "../../model/model.ts";
import { makeDirectory } from "../make-dir.ts";

/** How long a shared preview link works: 7 days, in ms (issue #16). */
export const PREVIEW_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The query parameter carrying the token. */
export const PREVIEW_PARAM = "preview";
/** The shortest secret accepted, in characters (32 hex characters: 128 bits). */
export const MIN_PREVIEW_SECRET_LENGTH = 32;

/** What checking a token says: `valid`, `expired` (signature right, time up) or `invalid` (malformed or forged). */
export type PreviewCheck = "valid" | "expired" | "invalid";

function signature(secret: string, kind: ContentKind, slug: string, expires: number): Buffer {
  return createHmac("sha256", secret).update(`${kind}\n${slug}\n${expires}`).digest();
}

/**
 * The token of a preview link for the item `kind`/`slug`, valid until `now + ttlMs` (ms since the epoch).
 * @throws {RangeError} for a secret shorter than `MIN_PREVIEW_SECRET_LENGTH`.
 */
export function signPreview(
  secret: string,
  kind: ContentKind,
  slug: string,
  now = Date.now(),
  ttlMs = PREVIEW_LINK_TTL_MS,
): string {
  if (secret.length < MIN_PREVIEW_SECRET_LENGTH) {
    throw new RangeError(`The preview secret must be at least ${MIN_PREVIEW_SECRET_LENGTH} characters.`);
  }
  const expires = Math.floor((now + ttlMs) / 1000);
  return `${expires}.${signature(secret, kind, slug, expires).toString("base64url")}`;
}

/**
 * Checks a preview token for `kind`/`slug` at `now` (ms since the epoch): the signature first (constant-time
 * comparison), then the expiry, so a forged token never learns whether its time would have been right.
 */
export function checkPreview(
  secret: string,
  kind: ContentKind,
  slug: string,
  token: string | null | undefined,
  now = Date.now(),
): PreviewCheck {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
  if (!match || secret.length < MIN_PREVIEW_SECRET_LENGTH) return "invalid";
  const expires = Number(match[1]);
  const given = Buffer.from(match[2]!, "base64url");
  const wanted = signature(secret, kind, slug, expires);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return "invalid";
  return expires * 1000 > now ? "valid" : "expired";
}

/**
 * The preview secret: `fromEnv` (`PREVIEW_SECRET`) when set, else the one kept in `dataDir/preview-secret`,
 * created (32 random bytes, hex, mode 0600) on first use. Delete the file, or change the variable, to revoke
 * every shared link.
 * @throws {RangeError} when `fromEnv` is shorter than `MIN_PREVIEW_SECRET_LENGTH`; file system errors.
 */
export async function loadPreviewSecret(fromEnv: string | undefined, dataDir: string): Promise<string> {
  if (fromEnv) {
    if (fromEnv.length < MIN_PREVIEW_SECRET_LENGTH) {
      throw new RangeError(
        `PREVIEW_SECRET must be at least ${MIN_PREVIEW_SECRET_LENGTH} characters; generate one with \`openssl rand -hex 32\`.`,
      );
    }
    return fromEnv;
  }
  const file = path.join(dataDir, "preview-secret");
  try {
    const kept = (await readFile(file, "utf8")).trim();
    if (kept.length >= MIN_PREVIEW_SECRET_LENGTH) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await makeDirectory(dataDir, 0o700); // DATA_DIR is private (SECURITY C73)
  const secret = randomBytes(32).toString("hex");
  try {
    await writeFile(file, secret + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs, so every process signs alike.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return (await readFile(file, "utf8")).trim();
    throw error;
  }
}
