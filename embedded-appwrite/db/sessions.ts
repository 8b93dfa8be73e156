import { createHash, randomBytes } from "node:crypto";
import { formatDatetime } from "../datetime.ts";
import { uniqueId } from "../ids.ts";
import type { Store } from "./store.ts";

/** Most sessions a user keeps; creating one more deletes the oldest (AW `maxSessions` default 10). */
export const MAX_SESSIONS = 10;

/** A stored session. Only the SHA-256 of its secret is kept. */
export interface SessionRecord {
  seq: number;
  id: string;
  userSeq: number;
  userId: string;
  provider: string;
  providerUid: string;
  ip: string;
  factors: string[];
  expire: string;
  createdAt: string;
  updatedAt: string;
}

type SessionRow = Record<string, unknown>;

function toSession(row: SessionRow): SessionRecord {
  return {
    seq: row["seq"] as number,
    id: row["id"] as string,
    userSeq: row["user_seq"] as number,
    userId: row["user_id"] as string,
    provider: row["provider"] as string,
    providerUid: row["provider_uid"] as string,
    ip: row["ip"] as string,
    factors: JSON.parse(row["factors"] as string) as string[],
    expire: row["expire"] as string,
    createdAt: row["created_at"] as string,
    updatedAt: row["updated_at"] as string,
  };
}

const SELECT = "SELECT sessions.*, users.id AS user_id FROM sessions JOIN users ON users.seq = sessions.user_seq";

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * The value of the `a_session_<project>` cookie, `X-Appwrite-Session` and a key caller's
 * `session.secret`: `base64(JSON.stringify({id: userId, secret}))` (REFERENCE §5, utopia `Auth\Store`).
 */
export function encodeSession(userId: string, secret: string): string {
  return Buffer.from(JSON.stringify({ id: userId, secret })).toString("base64");
}

/** Decode a session value; `undefined` when it is not of the shape `encodeSession` produces. */
export function decodeSession(value: string): { id: string; secret: string } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64").toString("utf8")) as unknown;
    if (parsed === null || typeof parsed !== "object") return undefined;
    const { id, secret } = parsed as Record<string, unknown>;
    return typeof id === "string" && typeof secret === "string" && secret !== "" ? { id, secret } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Create a session for user `userSeq` lasting `durationSeconds`, deleting the oldest ones beyond
 * `MAX_SESSIONS`. `factor` is `password`, `anonymous` or `server` as in AW. Returns the record and its plain secret (shown once, never stored).
 */
export function createSession(
  store: Store,
  user: { seq: number; id: string },
  fields: { provider: string; providerUid: string; ip: string; durationSeconds: number; factor: string },
): { session: SessionRecord; secret: string } {
  const secret = randomBytes(64).toString("hex");
  const now = new Date();
  const id = uniqueId();
  store.transaction(() => {
    store
      .stmt(
        "INSERT INTO sessions (id, user_seq, secret_hash, provider, provider_uid, ip, factors, expire, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        id,
        user.seq,
        hashSecret(secret),
        fields.provider,
        fields.providerUid,
        fields.ip,
        JSON.stringify([fields.factor]),
        formatDatetime(new Date(now.getTime() + fields.durationSeconds * 1000)),
        formatDatetime(now),
        formatDatetime(now),
      );
    store
      .stmt(
        "DELETE FROM sessions WHERE user_seq = ? AND seq NOT IN (SELECT seq FROM sessions WHERE user_seq = ? ORDER BY seq DESC LIMIT ?)",
      )
      .run(user.seq, user.seq, MAX_SESSIONS);
  });
  return { session: findSession(store, user.seq, id) as SessionRecord, secret };
}

/** The unexpired session of user `userId` whose secret is `secret`, or `undefined`. */
export function verifySession(store: Store, userId: string, secret: string, now: string): SessionRecord | undefined {
  const row = store
    .stmt(`${SELECT} WHERE sessions.secret_hash = ? AND users.id = ? AND sessions.expire > ?`)
    .get(hashSecret(secret), userId, now) as SessionRow | undefined;
  return row ? toSession(row) : undefined;
}

/** Session `id` of user `userSeq` (expired or not), or `undefined`. */
export function findSession(store: Store, userSeq: number, id: string): SessionRecord | undefined {
  const row = store.stmt(`${SELECT} WHERE sessions.user_seq = ? AND sessions.id = ?`).get(userSeq, id) as
    SessionRow | undefined;
  return row ? toSession(row) : undefined;
}

/** Every session of user `userSeq`, oldest first. */
export function listSessions(store: Store, userSeq: number): SessionRecord[] {
  return (store.stmt(`${SELECT} WHERE sessions.user_seq = ? ORDER BY sessions.seq`).all(userSeq) as SessionRow[]).map(
    toSession,
  );
}

/** Delete sessions of user `userSeq`: one (`id`), or all except `keepId`, or all. Returns how many. */
export function deleteSessions(store: Store, userSeq: number, filter: { id?: string; keepId?: string } = {}): number {
  if (filter.id !== undefined) {
    return store.stmt("DELETE FROM sessions WHERE user_seq = ? AND id = ?").run(userSeq, filter.id).changes;
  }
  return store.stmt("DELETE FROM sessions WHERE user_seq = ? AND id != ?").run(userSeq, filter.keepId ?? "").changes;
}

/**
 * Appwrite `Session` model (REFERENCE §3). Device and client fields are empty (the emulator
 * does not parse user agents); `countryCode` is `--`/`Unknown` as Appwrite reports unknown IPs.
 * `secret` is the encoded session value only when given (API-key callers at creation), else `""`.
 */
export function sessionModel(
  s: SessionRecord,
  options: { current: boolean; secret?: string },
): Record<string, unknown> {
  return {
    $id: s.id,
    $createdAt: s.createdAt,
    $updatedAt: s.updatedAt,
    userId: s.userId,
    expire: s.expire,
    provider: s.provider,
    providerUid: s.providerUid,
    providerAccessToken: "",
    providerAccessTokenExpiry: "",
    providerRefreshToken: "",
    ip: s.ip,
    osCode: "",
    osName: "",
    osVersion: "",
    clientType: "",
    clientCode: "",
    clientName: "",
    clientVersion: "",
    clientEngine: "",
    clientEngineVersion: "",
    deviceName: "",
    deviceBrand: "",
    deviceModel: "",
    countryCode: "--",
    countryName: "Unknown",
    current: options.current,
    factors: s.factors,
    secret: options.secret === undefined ? "" : encodeSession(s.userId, options.secret),
    mfaUpdatedAt: "",
  };
}
