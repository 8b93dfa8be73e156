import { hash, verify } from "@node-rs/argon2";
import { invalidParam, missingParam } from "../errors.ts";
import { ARGON2_OPTIONS } from "../db/users.ts";

let dummyHash: Promise<string> | undefined;

/**
 * Read the password parameter `name`: required or optional, 8–256 characters of any kind
 * (AW `Validator/Password`; SECURITY C12). Throws 400 `general_argument_invalid` otherwise.
 */
export function passwordParam(body: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = body[name];
  if (value === undefined || value === null || value === "") {
    if (required) throw missingParam(name);
    return undefined;
  }
  const length = typeof value === "string" ? [...value].length : 0;
  if (typeof value !== "string" || length < 8 || length > 256) {
    throw invalidParam(name, "Password must be between 8 and 256 characters long.");
  }
  return value;
}

/** Hash a password with Argon2id at Appwrite's m=65536, t=4, p=3 (SECURITY C11). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * True when `password` matches the PHC `passwordHash`. With no hash (unknown user, or a user
 * without a password) a dummy hash is still verified, so both cases take about as long as a
 * wrong password (SECURITY C15).
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    dummyHash ??= hashPassword("emulator-dummy-password");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
