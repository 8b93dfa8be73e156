/**
 * The users phase of a transfer (issue #32 item 4): every account with its id, e-mail, name, labels, prefs,
 * status, verification and password hash, imported on the target with Appwrite's hash imports
 * (`POST /users/argon2`, `/users/bcrypt`), so people sign in there with the password they have. Sessions are
 * not moved. A user whose hash differs on the target is created again (Appwrite cannot set a hash on an
 * existing user); other differences are patched.
 */
import { Query, type Models } from "node-appwrite";
import { AbortError, EXIT } from "../errors.ts";
import { listPages, PAGE_SIZE } from "../appwrite/paginate.ts";
import { canonicalJson, canonicalUser } from "./canonical.ts";
import { countsFor, type PhaseCounts, type PhaseOptions } from "./events.ts";
import type { TransferSide } from "./side.ts";

type User = Models.User<Models.Preferences>;

/** Every page of the users of `side`. */
export function userPages(side: TransferSide): AsyncGenerator<User[]> {
  return listPages((queries) => side.services.users.list({ queries }).then((page) => page.users));
}

/** Creates `user` on `target` with the same id, e-mail, name and password hash. */
async function importUser(target: TransferSide, user: User): Promise<void> {
  const users = target.services.users;
  const base = { userId: user.$id, email: user.email, name: user.name };
  if (!user.password) {
    await users.create({
      userId: user.$id,
      ...(user.email ? { email: user.email } : {}),
      ...(user.phone ? { phone: user.phone } : {}),
      name: user.name,
    });
  } else if (user.hash === "argon2") await users.createArgon2User({ ...base, password: user.password });
  else if (user.hash === "bcrypt") await users.createBcryptUser({ ...base, password: user.password });
  else {
    throw new AbortError(
      `User ${user.$id} (${user.email || "no e-mail"}) has a ${user.hash ?? "unknown"} password hash, which studio transfer does not import.`,
      {
        exitCode: EXIT.backend,
        nextSteps:
          "Ask the user to reset their password on the source (Appwrite then stores Argon2), or move them by hand.",
      },
    );
  }
}

/** Sets on `target` what a new user does not get from its import: status, labels, prefs, verification. */
async function patchUser(target: TransferSide, user: User, there: User | undefined): Promise<void> {
  const users = target.services.users;
  const userId = user.$id;
  if (there && there.name !== user.name) await users.updateName({ userId, name: user.name });
  if (there && there.email !== user.email && user.email) await users.updateEmail({ userId, email: user.email });
  if ((there?.status ?? true) !== user.status) await users.updateStatus({ userId, status: user.status });
  if (canonicalJson([...(there?.labels ?? [])].sort()) !== canonicalJson([...user.labels].sort()))
    await users.updateLabels({ userId, labels: user.labels });
  if (canonicalJson(there?.prefs ?? {}) !== canonicalJson(user.prefs))
    await users.updatePrefs({ userId, prefs: user.prefs });
  if ((there?.emailVerification ?? false) !== user.emailVerification)
    await users.updateEmailVerification({ userId, emailVerification: user.emailVerification });
}

/**
 * Copies every user from `source` to `target`.
 * @returns what was (or would be) created, updated and left as it was.
 * @throws {AbortError} (exit 3) for a password hash Appwrite cannot import; {AppwriteException} when a side refuses.
 */
export async function transferUsers(
  source: TransferSide,
  target: TransferSide,
  options: PhaseOptions,
): Promise<PhaseCounts> {
  const counts = countsFor("users");
  const { total } = await source.services.users.list({ queries: [Query.limit(1)] });
  let done = 0;
  for await (const page of userPages(source)) {
    const ids = page.map((user) => user.$id);
    const { users: found } = await target.services.users.list({
      queries: [Query.equal("$id", ids), Query.limit(Math.min(ids.length, PAGE_SIZE))],
    });
    const existing = new Map(found.map((user) => [user.$id, user]));
    for (const user of page) {
      let there = existing.get(user.$id);
      if (there && canonicalUser(there) === canonicalUser(user)) {
        counts.unchanged++;
        continue;
      }
      if (there) counts.update++;
      else counts.create++;
      if (options.dryRun) continue;
      const sameHash = there && (there.password ?? "") === (user.password ?? "") && there.hash === user.hash;
      if (there && !sameHash) {
        await target.services.users.delete({ userId: user.$id });
        there = undefined;
      }
      if (!there) await importUser(target, user);
      await patchUser(target, user, there);
    }
    done += page.length;
    options.events.onProgress?.({ phase: "users", scope: "users", done, total: Math.max(total, done) });
  }
  options.events.onPhase?.(counts);
  return counts;
}
