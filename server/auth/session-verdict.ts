/**
 * Whether a request's session cookie is a real sign-in, for the page cache (SECURITY C71, issue #26 item 4): a
 * `studio_session` cookie that Appwrite does not know is a guest, served the cached page like any other, so a
 * made-up cookie cannot turn the cache off. A verdict is asked of Appwrite once per cookie value and remembered
 * briefly (a guest for a minute, a sign-in for ten seconds): a value that is not a session never becomes one
 * (Appwrite's secrets are random), while a sign-out is seen within seconds.
 *
 * Values are remembered by their SHA-256, in a bounded least-recently-used map; concurrent requests with one new
 * value share one question to Appwrite.
 */
import { createHash } from "node:crypto";
import { AppwriteException } from "node-appwrite";
import { createCookie } from "react-router";
import { createSessionServices, type AppwriteTarget } from "../../lib/appwrite/client.ts";
import { LRUCache } from "lru-cache";
import { SECURE_SESSION_COOKIE_NAME, SESSION_COOKIE_NAME } from "./session-cookie.ts";
import { isEditorAccount } from "./account.ts";

/** How long a verdict is remembered, in ms. */
export const GUEST_VERDICT_MS = 60_000;
export const SIGNED_IN_VERDICT_MS = 10_000;
/** Most cookie values remembered. */
const MAX_VERDICTS = 10_000;

const COOKIES = [createCookie(SESSION_COOKIE_NAME), createCookie(SECURE_SESSION_COOKIE_NAME)];
const SESSION_VALUE = new RegExp(`(?:^|;)\\s*(?:__Host-)?${SESSION_COOKIE_NAME}=([^;\\s]+)`, "g");

export interface SessionVerdictOptions {
  /**
   * Whether `secret` (an Appwrite session secret, as the site's cookie holds it) is a live session: true or
   * false; throws when Appwrite cannot say (then the request counts as signed in and nothing is remembered).
   */
  isSession: (secret: string) => Promise<boolean>;
  /** Clock, in ms (tests). */
  now?: () => number;
}

/** Remembered verdicts on session cookies; one per site process. */
export class SessionVerdicts {
  private readonly verdicts = new LRUCache<string, { signedIn: boolean; until: number }>({ max: MAX_VERDICTS });
  private readonly pending = new Map<string, Promise<boolean>>();
  private readonly now: () => number;

  constructor(private readonly options: SessionVerdictOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The verdict on a `Cookie` header, if it can be given at once: false without a session cookie or with one
   * remembered as a guest, true for one remembered as a sign-in, undefined when Appwrite must be asked (`judge`).
   */
  known(cookieHeader: string | undefined): boolean | undefined {
    const key = keyOf(cookieHeader);
    if (key === null) return false;
    const verdict = this.verdicts.get(key);
    if (!verdict) return undefined;
    if (verdict.until > this.now()) return verdict.signedIn;
    this.verdicts.delete(key);
    return undefined;
  }

  /**
   * Whether a `Cookie` header carries a signed-in session: `known`, else Appwrite's answer (remembered). Never
   * rejects: a cookie Appwrite could not judge counts as a sign-in (never cached), and is asked again next time.
   */
  async judge(cookieHeader: string | undefined): Promise<boolean> {
    const known = this.known(cookieHeader);
    if (known !== undefined) return known;
    const key = keyOf(cookieHeader)!;
    let asking = this.pending.get(key);
    if (!asking) {
      asking = this.ask(cookieHeader!, key).finally(() => this.pending.delete(key));
      this.pending.set(key, asking);
    }
    return asking;
  }

  private async ask(cookieHeader: string, key: string): Promise<boolean> {
    try {
      let signedIn = false;
      for (const cookie of COOKIES) {
        const secret: unknown = await cookie.parse(cookieHeader);
        if (typeof secret === "string" && secret && (await this.options.isSession(secret))) signedIn = true;
      }
      this.verdicts.set(key, {
        signedIn,
        until: this.now() + (signedIn ? SIGNED_IN_VERDICT_MS : GUEST_VERDICT_MS),
      });
      return signedIn;
    } catch {
      return true;
    }
  }
}

/** The session cookie values of a `Cookie` header, hashed together; null when it carries none. */
function keyOf(cookieHeader: string | undefined): string | null {
  // Most guests carry no session cookie at all: answered without the regular expression (`matchAll` copies it).
  if (!cookieHeader || !cookieHeader.includes(SESSION_COOKIE_NAME)) return null;
  const values = [...cookieHeader.matchAll(SESSION_VALUE)].map((match) => match[0].replace(/^;?\s*/, ""));
  if (values.length === 0) return null;
  return createHash("sha256").update(values.join("\n")).digest("base64url");
}

/**
 * The `isSession` of a site on the Appwrite at `target`: `account.get` with the secret (Appwrite Account API);
 * false when Appwrite answers 401 (no such session) or the session's user has no e-mail (an anonymous session is
 * never a sign-in of the site: `isEditorAccount`, issue #28 item 6); a 429 or a 5xx rejects, so the question
 * stays open.
 */
export function appwriteSessionCheck(
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
): (secret: string) => Promise<boolean> {
  return async (secret) => {
    try {
      return isEditorAccount(await createSessionServices(target, secret).account.get());
    } catch (error) {
      if (error instanceof AppwriteException && error.code === 401) return false;
      throw error;
    }
  };
}
