/**
 * The common-password check of the password policy (SECURITY C12; ASVS v5 6.2.4: "checked against a set of
 * at least the top 3000 passwords which match the application's password policy"). The list is
 * `@zxcvbn-ts/language-common`'s `passwords-common`: about 49,000 passwords ranked by frequency in breach
 * corpora (MIT). Of those, the ones that fit the policy (8 characters or more, about 18,000) are kept.
 */

/** Shortest password the policy accepts; shorter list entries could never be chosen anyway. */
const MIN_LENGTH = 8;

let listed: Promise<ReadonlySet<string>> | undefined;

/** The list, loaded on first use (about 40 ms) so that the CLI and the browser bundle never carry it. */
function commonPasswords(): Promise<ReadonlySet<string>> {
  listed ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) => {
    const entries = dictionary["passwords-common"];
    if (!Array.isArray(entries) || entries.length < 3000) {
      throw new Error("@zxcvbn-ts/language-common no longer ships its password list; SECURITY C12 needs one.");
    }
    return new Set(entries.filter((entry) => entry.length >= MIN_LENGTH));
  });
  return listed;
}

/**
 * Whether `password` is one of the common passwords, ignoring letter case (the list is lower case, and
 * "Password1" is guessed as early as "password1").
 * @throws {Error} when the installed list is missing or empty (a broken dependency, not user input).
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}

/** How many policy-length passwords the check knows (for tests and docs). */
export async function commonPasswordCount(): Promise<number> {
  return (await commonPasswords()).size;
}
