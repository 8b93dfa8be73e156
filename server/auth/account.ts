/**
 * Authentication per Appwrite's server-side-rendering pattern (ARCHITECTURE decision 2; REFERENCE §5): the
 * site signs users in with its API-key client, which gets the session `secret`; the site keeps the secret in
 * its own HttpOnly cookie and acts for the user with a per-request session client. Spec §4 (auth states),
 * §5 (login and registration rules), §7 (auth operations).
 */
import { Account, AppwriteException, ID, Query } from "node-appwrite";
import { createSessionServices, type AdminServices, type AppwriteTarget } from "../../lib/appwrite/client.ts";
import { isCommonPassword } from "./common-passwords.ts";
import { claimFirstOwner } from "../../lib/appwrite/studio-team.ts";
import { loadConfig } from "../../lib/config.ts";
import { adminLocaleOf, type AdminLocale } from "./prefs.ts";

/** The signed-in user as pages see it (spec §3 "User": id, name, email). */
export interface SignedInUser {
  id: string;
  name: string;
  email: string;
}

/** A new session: the secret to keep in the site's cookie, and when Appwrite expires it. */
export interface NewSession {
  secret: string;
  /** ISO date-time. */
  expire: string;
  user: SignedInUser;
  /** The admin language the user chose (account prefs, `prefs.ts`), or null when they never chose one. */
  adminLocale: AdminLocale | null;
}

/** Wrong e-mail or password; the same error either way (no user enumeration, SECURITY C15). */
export class InvalidCredentialsError extends Error {
  override name = "InvalidCredentialsError";
  constructor() {
    super("Authentication failed. Please check your credentials.");
  }
}

/** A sign-up that cannot proceed, with the message to show (spec §5, §8). */
export class RegistrationError extends Error {
  override name = "RegistrationError";
}

/** Minimum and maximum password length (Appwrite: 8–256; SECURITY C12). */
export const PASSWORD_LENGTH = { min: 8, max: 256 } as const;

/**
 * What registration and a password change say about a password from the common-password list (SECURITY C12).
 * Pages show their locale's text for it (`auth.commonPassword`, `admin.account.commonPassword`).
 */
export const COMMON_PASSWORD_MESSAGE = "This password is too common and easy to guess. Please choose a different one.";

/**
 * Appwrite's own dictionary check (project setting `passwordDictionary`) fails with 400
 * `general_argument_invalid` and its validator's description, which also covers the length; lengths are checked
 * here first, so it means the dictionary.
 */
const APPWRITE_DICTIONARY = /commonly used password/i;

const isType = (error: unknown, ...types: string[]) => error instanceof AppwriteException && types.includes(error.type);

/**
 * Creates an e-mail/password session for `email` through the API-key client (the secret is only returned
 * to API-key callers).
 * @throws {InvalidCredentialsError} for an unknown e-mail or a wrong password; {AppwriteException} otherwise.
 */
export async function signIn(admin: AdminServices, email: string, password: string): Promise<NewSession> {
  const account = new Account(admin.client);
  let session;
  try {
    session = await account.createEmailPasswordSession({ email: email.trim().toLowerCase(), password });
  } catch (error) {
    if (isType(error, "user_invalid_credentials", "user_not_found", "general_argument_invalid"))
      throw new InvalidCredentialsError();
    throw error;
  }
  const user = await admin.users.get({ userId: session.userId });
  await claimOwnerQuietly(admin);
  return {
    secret: session.secret,
    expire: session.expire,
    user: { id: user.$id, name: user.name, email: user.email },
    adminLocale: adminLocaleOf(user.prefs),
  };
}

/**
 * Names the studio team's first owner if it has none (`claimFirstOwner`: `STUDIO_OWNER_EMAIL`, else the first
 * account ever registered; issue #28 item 1), at every sign-in, so a site started on an Appwrite with users
 * gets its owner at their next sign-in. A failure is logged, never a failed sign-in.
 */
async function claimOwnerQuietly(admin: AdminServices): Promise<void> {
  try {
    await claimFirstOwner(admin, loadConfig().studioOwnerEmail);
  } catch (error) {
    console.warn("[team] naming the studio team's owner failed:", (error as Error).message);
  }
}

/**
 * Registers a user and signs them in (spec §4: "Register creates the account then signs in"). With
 * `openRegistration` false only the first account may be created (the studio's owner; README).
 * @throws {RegistrationError} with the message to show: closed registration, a name or password missing or
 * too short or long, a common password (`COMMON_PASSWORD_MESSAGE`; SECURITY C12), an e-mail already registered.
 */
export async function register(
  admin: AdminServices,
  input: { name: string; email: string; password: string },
  options: { openRegistration: boolean },
): Promise<NewSession> {
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  if (!name) throw new RegistrationError("Name is required for registration.");
  if (input.password.length < PASSWORD_LENGTH.min || input.password.length > PASSWORD_LENGTH.max) {
    throw new RegistrationError(`Password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters long.`);
  }
  if (await isCommonPassword(input.password)) throw new RegistrationError(COMMON_PASSWORD_MESSAGE);
  if (!options.openRegistration) {
    const existing = await admin.users.list({ queries: [Query.limit(1)] });
    if (existing.total > 0) throw new RegistrationError("Registration is closed. Ask the site's owner for an account.");
  }
  try {
    await admin.users.create({ userId: ID.unique(), email, password: input.password, name });
  } catch (error) {
    if (isType(error, "user_already_exists", "user_email_already_exists")) {
      throw new RegistrationError("A user with the same email already exists. Sign in instead.");
    }
    if (isType(error, "general_argument_invalid")) {
      const { message } = error as AppwriteException;
      throw new RegistrationError(APPWRITE_DICTIONARY.test(message) ? COMMON_PASSWORD_MESSAGE : message);
    }
    throw error;
  }
  return signIn(admin, email, input.password);
}

/**
 * Whether an Appwrite user may be a signed-in editor of the site (issue #28 item 6): only an account with an
 * e-mail address. An anonymous session's user (`POST /account/sessions/anonymous`, open on a real Appwrite)
 * or a phone-only account never is, whatever `OPEN_REGISTRATION` says.
 */
export function isEditorAccount(user: { email?: string | null }): boolean {
  return typeof user.email === "string" && user.email.trim() !== "";
}

/**
 * The user a session secret belongs to, or null when the secret is unknown, expired or deleted (spec §4:
 * "Failure to fetch the current user sets no user"), or belongs to an account without an e-mail (an
 * anonymous session: `isEditorAccount`).
 * @throws {AppwriteException} only when Appwrite fails otherwise (5xx, unreachable).
 */
export async function currentUser(
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
  secret: string,
): Promise<SignedInUser | null> {
  try {
    const user = await createSessionServices(target, secret).account.get();
    if (!isEditorAccount(user)) return null;
    return { id: user.$id, name: user.name, email: user.email };
  } catch (error) {
    if (error instanceof AppwriteException && error.code >= 400 && error.code < 500) return null;
    throw error;
  }
}

/** Deletes the current session in Appwrite (spec §7: logout = delete session 'current'); an unknown one is fine. */
export async function signOut(target: Pick<AppwriteTarget, "endpoint" | "projectId">, secret: string): Promise<void> {
  try {
    await createSessionServices(target, secret).account.deleteSession({ sessionId: "current" });
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code >= 400 && error.code < 500)) throw error;
  }
}

/** Account updates fail with the spec's texts (§8: "Failed to update name." / "Failed to update password."). */
export class AccountUpdateError extends Error {
  override name = "AccountUpdateError";
}

/**
 * Changes the user's name (spec §5: required).
 * @throws {AccountUpdateError}
 */
export async function updateName(
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
  secret: string,
  name: string,
): Promise<SignedInUser> {
  const trimmed = name.trim();
  if (!trimmed) throw new AccountUpdateError("Name is required.");
  try {
    const user = await createSessionServices(target, secret).account.updateName({ name: trimmed });
    return { id: user.$id, name: user.name, email: user.email };
  } catch {
    throw new AccountUpdateError("Failed to update name.");
  }
}

/**
 * Changes the user's password (spec §5: the current one is required; new and confirm must match; SECURITY
 * C12: 8–256 characters, not a common password).
 * @throws {AccountUpdateError} with the spec's message for each rule, `COMMON_PASSWORD_MESSAGE`, or
 * "Failed to update password."
 */
export async function updatePassword(
  target: Pick<AppwriteTarget, "endpoint" | "projectId">,
  secret: string,
  input: { current: string; next: string; confirm: string },
): Promise<void> {
  if (!input.current) throw new AccountUpdateError("Current password is required to change your password.");
  if (input.next !== input.confirm) throw new AccountUpdateError("New passwords do not match.");
  if (input.next.length < PASSWORD_LENGTH.min || input.next.length > PASSWORD_LENGTH.max) {
    throw new AccountUpdateError(`Password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters long.`);
  }
  if (await isCommonPassword(input.next)) throw new AccountUpdateError(COMMON_PASSWORD_MESSAGE);
  try {
    await createSessionServices(target, secret).account.updatePassword({
      password: input.next,
      oldPassword: input.current,
    });
  } catch (error) {
    if (isType(error, "user_invalid_credentials"))
      throw new AccountUpdateError("Failed to update password. The current password is wrong.");
    if (isType(error, "general_argument_invalid") && APPWRITE_DICTIONARY.test((error as AppwriteException).message))
      throw new AccountUpdateError(COMMON_PASSWORD_MESSAGE);
    throw new AccountUpdateError("Failed to update password.");
  }
}
