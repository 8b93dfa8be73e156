/**
 * Shared preview links (issue #16 item 3, issue #28 item 4): a draft or scheduled item's public URL with
 * `?preview=<token>`, which opens that one document signed-out until the token expires (7 days). The token is
 * `<expiry>.<signature>.<key>.<documentId>`: the expiry in seconds since the epoch, an HMAC-SHA-256 (RFC 2104)
 * of the kind, document id, locale, key and expiry under the site's preview secret (base64url), the item's
 * preview key (`PREVIEW_KEY_COLUMN`, changed to revoke its links) and the document id. A link is bound to
 * one document and its locale, never to a slug: it stops working when the document is deleted or its key
 * changes. Rotating the secret revokes every link. Signatures are compared in constant time.
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
/** The column holding an item's preview key; a document without one has the key `DEFAULT_PREVIEW_KEY`. */
export const PREVIEW_KEY_COLUMN = "previewKey";
/** The preview key of a document that never had its links revoked. */
export const DEFAULT_PREVIEW_KEY = "0";

/** What checking a token says: `valid`, `expired` (signature right, time up) or `invalid` (malformed or forged). */
export type PreviewCheck = "valid" | "expired" | "invalid";

/** What a preview link is for: one document of `kind` in `locale`, at its preview `key`. */
export interface PreviewTarget {
  kind: ContentKind;
  documentId: string;
  locale: string;
  key: string;
}

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9]{1,32})\.([A-Za-z0-9][A-Za-z0-9._-]{0,35})$/;

function signature(secret: string, target: PreviewTarget, expires: number): Buffer {
  const { kind, documentId, locale, key } = target;
  return createHmac("sha256", secret).update(`${kind}\n${documentId}\n${locale}\n${key}\n${expires}`).digest();
}

/** The preview key of a stored document (`PREVIEW_KEY_COLUMN`, else `DEFAULT_PREVIEW_KEY`). */
export function previewKeyOf(doc: Record<string, unknown>): string {
  const key = doc[PREVIEW_KEY_COLUMN];
  return typeof key === "string" && /^[A-Za-z0-9]{1,32}$/.test(key) ? key : DEFAULT_PREVIEW_KEY;
}

/** A new random preview key (revoking the links signed with the old one): 24 hex characters. */
export function newPreviewKey(): string {
  return randomBytes(12).toString("hex");
}

/**
 * The token of a preview link for `target`, valid until `now + ttlMs` (ms since the epoch).
 * @throws {RangeError} for a secret shorter than `MIN_PREVIEW_SECRET_LENGTH`, or a key or id a token cannot carry.
 */
export function signPreview(
  secret: string,
  target: PreviewTarget,
  now = Date.now(),
  ttlMs = PREVIEW_LINK_TTL_MS,
): string {
  if (secret.length < MIN_PREVIEW_SECRET_LENGTH) {
    throw new RangeError(`The preview secret must be at least ${MIN_PREVIEW_SECRET_LENGTH} characters.`);
  }
  const expires = Math.floor((now + ttlMs) / 1000);
  const token = `${expires}.${signature(secret, target, expires).toString("base64url")}.${target.key}.${target.documentId}`;
  if (!TOKEN.test(token))
    throw new RangeError("A preview key is 1–32 letters or digits, a document id an Appwrite id.");
  return token;
}

/**
 * Checks a preview token for a page of `kind` in `locale` at `now` (ms since the epoch): the signature first
 * (constant-time comparison), then the expiry, so a forged token never learns whether its time would have
 * been right. A valid token names the document and key it was signed for, which the page must still find
 * (the document exists, is in `locale`, at that key).
 */
export function readPreview(
  secret: string,
  kind: ContentKind,
  locale: string,
  token: string | null | undefined,
  now = Date.now(),
): { check: PreviewCheck; documentId: string; key: string } {
  const match = TOKEN.exec(token ?? "");
  if (!match || secret.length < MIN_PREVIEW_SECRET_LENGTH) return { check: "invalid", documentId: "", key: "" };
  const expires = Number(match[1]);
  const given = Buffer.from(match[2]!, "base64url");
  const target = { kind, locale, key: match[3]!, documentId: match[4]! };
  const wanted = signature(secret, target, expires);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    return { check: "invalid", documentId: "", key: "" };
  }
  return { check: expires * 1000 > now ? "valid" : "expired", documentId: target.documentId, key: target.key };
}

/** `readPreview`'s verdict alone. */
export function checkPreview(
  secret: string,
  kind: ContentKind,
  locale: string,
  token: string | null | undefined,
  now = Date.now(),
): PreviewCheck {
  return readPreview(secret, kind, locale, token, now).check;
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
