import { nowDatetime } from "../datetime.ts";
import type { Store } from "../db/store.ts";
import { ARGON2_OPTIONS, findUser, insertUser } from "../db/users.ts";
import type { PasswordHashing, UserRecord } from "../db/users.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import { stringParam } from "../http/params.ts";
import { uniqueId } from "../ids.ts";
import { hashPassword } from "./passwords.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9]\d{6,14}$/;

/** Read an optional email parameter, lowercased (AW `Validator/Email`, max 254 chars). */
export function emailParam(body: Record<string, unknown>, name = "email"): string | null {
  const raw = stringParam(body, name, { max: 254 });
  if (raw === undefined || raw === "") return null;
  const email = raw.toLowerCase();
  if (!EMAIL.test(email)) throw invalidParam(name, "Value must be a valid email address");
  return email;
}

/** Read an optional E.164 phone parameter (AW `Validator/Phone`). */
export function phoneParam(body: Record<string, unknown>, name = "phone"): string | null {
  const raw = stringParam(body, name, { max: 16 });
  if (raw === undefined || raw === "") return null;
  if (!PHONE.test(raw)) {
    throw invalidParam(name, "Phone number must start with a '+' can have a maximum of fifteen digits.");
  }
  return raw;
}

/** The `email` messaging target Appwrite creates with a user (REFERENCE §3 "Target"). */
export function emailTarget(userId: string, email: string, now: string): Record<string, unknown> {
  return {
    $id: uniqueId(),
    $createdAt: now,
    $updatedAt: now,
    name: "",
    userId,
    providerId: null,
    providerType: "email",
    identifier: email,
    expired: false,
  };
}

/**
 * Create a user (`POST /users`, `POST /account`, anonymous sessions). The password, if any, is
 * hashed with Argon2id at `hashing` (the server's cost; default Appwrite's). Throws 409 `user_already_exists` when the ID, email or phone is taken
 * (REFERENCE §4).
 */
export async function createUserRecord(
  store: Store,
  fields: {
    id: string;
    email: string | null;
    phone: string | null;
    password?: string;
    /** A password hash to keep as it is (Appwrite's user imports, `POST /users/argon2`), instead of `password`. */
    passwordHash?: string;
    name: string;
  },
  hashing: PasswordHashing = ARGON2_OPTIONS,
): Promise<UserRecord> {
  const { id, email, phone } = fields;
  const taken = () =>
    store.stmt("SELECT 1 FROM users WHERE id = ? OR email = ? OR phone = ?").get(id, email, phone) !== undefined;
  if (taken()) throw new AppwriteError("user_already_exists");
  const passwordHash =
    fields.passwordHash ?? (fields.password === undefined ? null : await hashPassword(fields.password, hashing));
  const now = nowDatetime();
  try {
    insertUser(store, {
      id,
      name: fields.name,
      email,
      phone,
      passwordHash,
      targets: email === null ? [] : [emailTarget(id, email, now)],
      now,
    });
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
      throw new AppwriteError("user_already_exists");
    throw error;
  }
  return findUser(store, id) as UserRecord;
}
