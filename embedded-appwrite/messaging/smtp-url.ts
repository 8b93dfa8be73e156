import { nowDatetime } from "../datetime.ts";
import { findProvider, saveProvider } from "../db/messaging.ts";
import type { Store } from "../db/store.ts";

/** ID of the SMTP provider that `SMTP_URL` creates and keeps in step. */
export const SMTP_URL_PROVIDER_ID = "smtp-url";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What an `SMTP_URL` says, as Appwrite SMTP provider fields. */
export interface SmtpUrlSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  /** `ssl` for `smtps:`, else `""` (STARTTLS when the server offers it: autoTLS). */
  encryption: string;
  fromEmail: string;
  fromName: string;
}

/**
 * Parse `SMTP_URL`: `smtp[s]://[user[:password]@]host[:port][?from=Name%20<address>|address]`.
 * Port defaults to 465 for `smtps:` and 587 for `smtp:`; the sender is `from`, else the user name
 * when it is an address. User name and password are percent-decoded.
 * @throws {Error} with what to fix, when the scheme, host or sender is missing or wrong.
 */
export function parseSmtpUrl(raw: string): SmtpUrlSettings {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("SMTP_URL is not a URL: write it as smtp://user:password@host:587?from=hello@example.com");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}//".`);
  }
  if (url.hostname === "") throw new Error("SMTP_URL has no host: write it as smtp://user:password@host:587");
  const username = decodeURIComponent(url.username);
  const from = url.searchParams.get("from") ?? (EMAIL.test(username) ? username : "");
  const named = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  const fromEmail = (named ? (named[2] ?? "") : from).trim().toLowerCase();
  if (!EMAIL.test(fromEmail)) {
    throw new Error(
      "SMTP_URL needs a sender address: add ?from=hello@example.com (or ?from=Name%20<hello@example.com>).",
    );
  }
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
    username,
    password: decodeURIComponent(url.password),
    encryption: secure ? "ssl" : "",
    fromEmail,
    fromName: named ? (named[1] ?? "").replace(/^"(.*)"$/, "$1") : "",
  };
}

/**
 * Create or update the `smtp-url` provider from `SMTP_URL` (enabled), so `npm start` users set one
 * variable. Without `SMTP_URL` nothing changes (a provider made earlier stays as the console left it).
 * @throws {Error} from `parseSmtpUrl` when the URL is malformed.
 */
export function applySmtpUrl(store: Store, raw: string | undefined): void {
  if (raw === undefined || raw.trim() === "") return;
  const s = parseSmtpUrl(raw.trim());
  const now = nowDatetime();
  const existing = findProvider(store, SMTP_URL_PROVIDER_ID);
  saveProvider(store, {
    id: SMTP_URL_PROVIDER_ID,
    name: "SMTP_URL",
    provider: "smtp",
    type: "email",
    enabled: true,
    credentials: { host: s.host, port: s.port, username: s.username, password: s.password },
    options: {
      fromName: s.fromName,
      fromEmail: s.fromEmail,
      replyToName: "",
      replyToEmail: "",
      encryption: s.encryption,
      autoTLS: true,
      mailer: "",
    },
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  });
}
