import { hash, verify } from "@node-rs/argon2";
import { invalidParam, missingParam } from "../errors.ts";
import { ARGON2_OPTIONS, type PasswordHashing } from "../db/users.ts";

/** One dummy hash per cost, made on first need (`verifyPassword`). */
const dummyHashes = new Map<string, Promise<string>>();

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

/**
 * Hash a password with Argon2id, as a PHC string, at the server's cost: Appwrite's m=65536, t=4, p=3 unless
 * the server was started with another (`EmulatorOptions.passwordHashing`; SECURITY C11).
 */
export function hashPassword(password: string, hashing: PasswordHashing = ARGON2_OPTIONS): Promise<string> {
  return hash(password, hashing);
}

/**
 * True when `password` matches the PHC `passwordHash`. With no hash (unknown user, or a user
 * without a password) a dummy hash is still verified, so both cases take about as long as a
 * wrong password (SECURITY C15); the dummy is made at the server's cost `hashing`, as its users' hashes are.
 */
export async function verifyPassword(
  passwordHash: string | null,
  password: string,
  hashing: PasswordHashing = ARGON2_OPTIONS,
): Promise<boolean> {
  if (passwordHash === null) {
    const key = `${hashing.memoryCost},${hashing.timeCost},${hashing.parallelism}`;
    let dummy = dummyHashes.get(key);
    if (!dummy) dummyHashes.set(key, (dummy = hashPassword("emulator-dummy-password", hashing)));
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
