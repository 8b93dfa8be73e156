import type { Store } from "./store.ts";

/** Argon2id cost parameters: memory in KiB, passes, lanes (RFC 9106 §3.1 m, t, p). */
export interface PasswordHashing {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** Appwrite's Argon2id parameters for new passwords (utopia `Hashes/Argon2.php`; SECURITY C11). */
export const ARGON2_OPTIONS: Readonly<PasswordHashing> = { memoryCost: 65536, timeCost: 4, parallelism: 3 };

/**
 * An Argon2 hash in the PHC string format (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), as Appwrite stores them;
 * groups 1–3 are m, t and p.
 */
export const ARGON2_PHC =
  /^\$argon2(?:id|i|d)\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/;

/**
 * The cost parameters a PHC string was made with (`$argon2id$v=19$m=65536,t=4,p=3$…`; the PHC string format's
 * parameter list), or Appwrite's defaults for a user without a password or with another hash format.
 */
export function hashingOf(passwordHash: string | null): PasswordHashing {
  const found = passwordHash?.match(ARGON2_PHC);
  return found
    ? { memoryCost: Number(found[1]), timeCost: Number(found[2]), parallelism: Number(found[3]) }
    : ARGON2_OPTIONS;
}

/** A stored user (Appwrite `User` model fields plus the password hash). */
export interface UserRecord {
  seq: number;
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  passwordHash: string | null;
  status: boolean;
  labels: string[];
  prefs: Record<string, unknown>;
  targets: unknown[];
  emailVerification: boolean;
  phoneVerification: boolean;
  mfa: boolean;
  registration: string;
  passwordUpdate: string;
  accessedAt: string;
  createdAt: string;
  updatedAt: string;
}

/** Raw `users` row. */
export type UserRow = Record<string, unknown>;

/** Map a `users` row to a record. */
export function toUser(row: UserRow): UserRecord {
  return {
    seq: row["seq"] as number,
    id: row["id"] as string,
    name: row["name"] as string,
    email: (row["email"] as string | null) ?? null,
    phone: (row["phone"] as string | null) ?? null,
    passwordHash: (row["password_hash"] as string | null) ?? null,
    status: row["status"] === 1,
    labels: JSON.parse(row["labels"] as string) as string[],
    prefs: JSON.parse(row["prefs"] as string) as Record<string, unknown>,
    targets: JSON.parse(row["targets"] as string) as unknown[],
    emailVerification: row["email_verification"] === 1,
    phoneVerification: row["phone_verification"] === 1,
    mfa: row["mfa"] === 1,
    registration: row["registration"] as string,
    passwordUpdate: row["password_update"] as string,
    accessedAt: row["accessed_at"] as string,
    createdAt: row["created_at"] as string,
    updatedAt: row["updated_at"] as string,
  };
}

/** The user with public ID `id`, or `undefined`. */
export function findUser(store: Store, id: string): UserRecord | undefined {
  const row = store.stmt("SELECT * FROM users WHERE id = ?").get(id) as UserRow | undefined;
  return row ? toUser(row) : undefined;
}

/** The user with (lowercased) `email`, or `undefined`. */
export function findUserByEmail(store: Store, email: string): UserRecord | undefined {
  const row = store.stmt("SELECT * FROM users WHERE email = ?").get(email) as UserRow | undefined;
  return row ? toUser(row) : undefined;
}

/** Fields `insertUser` takes; the rest get Appwrite's defaults for a new user. */
export interface NewUser {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  passwordHash: string | null;
  targets: unknown[];
  now: string;
}

/** Insert a user. Throws better-sqlite3's `SQLITE_CONSTRAINT_UNIQUE` on a taken ID, email or phone. */
export function insertUser(store: Store, u: NewUser): void {
  store
    .stmt(
      "INSERT INTO users (id, name, email, phone, password_hash, status, labels, prefs, targets, email_verification, phone_verification, mfa, registration, password_update, accessed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, '[]', '{}', ?, 0, 0, 0, ?, ?, ?, ?, ?)",
    )
    .run(
      u.id,
      u.name,
      u.email,
      u.phone,
      u.passwordHash,
      JSON.stringify(u.targets),
      u.now,
      u.passwordHash ? u.now : "",
      u.now,
      u.now,
      u.now,
    );
}

const COLUMNS = {
  name: "name",
  email: "email",
  phone: "phone",
  passwordHash: "password_hash",
  status: "status",
  labels: "labels",
  prefs: "prefs",
  targets: "targets",
  emailVerification: "email_verification",
  phoneVerification: "phone_verification",
  passwordUpdate: "password_update",
  accessedAt: "accessed_at",
} as const;

/** Fields `updateUser` may change. */
export type UserChanges = Partial<Pick<UserRecord, keyof typeof COLUMNS>>;

/**
 * Update the given fields of user `seq` and stamp `updated_at` with `now`. Booleans are
 * stored as 0/1 and arrays/objects as JSON. Throws `SQLITE_CONSTRAINT_UNIQUE` on a taken email/phone.
 */
export function updateUser(store: Store, seq: number, changes: UserChanges, now: string): void {
  const entries = Object.entries(changes) as [keyof typeof COLUMNS, unknown][];
  const sets = entries.map(([key]) => `${COLUMNS[key]} = ?`);
  const values = entries.map(([, value]) =>
    typeof value === "boolean"
      ? value
        ? 1
        : 0
      : value !== null && typeof value === "object"
        ? JSON.stringify(value)
        : value,
  );
  store.stmt(`UPDATE users SET ${[...sets, "updated_at = ?"].join(", ")} WHERE seq = ?`).run(...values, now, seq);
}

/**
 * Appwrite `Account` model (REFERENCE §3, AW `Model/Account.php`): the User fields without
 * `password`, `hash` and `hashOptions`. Empty `prefs` serialise as `{}`.
 */
export function accountModel(u: UserRecord): Record<string, unknown> {
  return {
    $id: u.id,
    $createdAt: u.createdAt,
    $updatedAt: u.updatedAt,
    name: u.name,
    registration: u.registration,
    status: u.status,
    labels: u.labels,
    passwordUpdate: u.passwordUpdate,
    email: u.email ?? "",
    phone: u.phone ?? "",
    emailVerification: u.emailVerification,
    phoneVerification: u.phoneVerification,
    mfa: u.mfa,
    prefs: u.prefs,
    targets: u.targets,
    accessedAt: u.accessedAt,
  };
}

/**
 * Appwrite `User` model (REFERENCE §3, AW `Model/User.php`) as API-key callers see it:
 * `password` is the Argon2id PHC hash (never the password), with `hash`/`hashOptions`.
 */
export function userModel(u: UserRecord): Record<string, unknown> {
  const { $id, $createdAt, $updatedAt, name, ...rest } = accountModel(u);
  const hashing = hashingOf(u.passwordHash);
  return {
    $id,
    $createdAt,
    $updatedAt,
    name,
    password: u.passwordHash ?? "",
    hash: "argon2",
    hashOptions: {
      type: "argon2",
      memoryCost: hashing.memoryCost,
      timeCost: hashing.timeCost,
      threads: hashing.parallelism,
    },
    ...rest,
  };
}

/**
 * Roles a session or JWT user holds (AW `Documents/User.php getRoles`; REFERENCE §6): `any`,
 * `users`, `user:<id>`, the `(un)verified` variants, then `teamRoles` (the roles of the user's confirmed
 * memberships, `membershipRoles` in `teams.ts`), then `label:<l>`. Never `guests`.
 */
export function userRoles(u: UserRecord, teamRoles: readonly string[] = []): string[] {
  const verified = u.emailVerification || u.phoneVerification ? "verified" : "unverified";
  return [
    "any",
    "users",
    `user:${u.id}`,
    `users/${verified}`,
    `user:${u.id}/${verified}`,
    ...teamRoles,
    ...u.labels.map((l) => `label:${l}`),
  ];
}
