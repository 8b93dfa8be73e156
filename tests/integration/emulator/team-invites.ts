import Database from "better-sqlite3";
import { join } from "node:path";
import { hashInviteSecret, newInviteSecret } from "../../../embedded-appwrite/db/teams.ts";

/**
 * The secret of invitation `membershipId`, as the invitation e-mail would carry it. The emulator keeps
 * only the secret's SHA-256 and never returns it (as Appwrite), and it sends no e-mail, so this test
 * helper writes a fresh secret's hash into the store in `dataDir` (what re-sending the invitation does)
 * and returns the secret. Throws when there is no such membership.
 */
export function inviteSecret(dataDir: string, membershipId: string): string {
  const secret = newInviteSecret();
  const db = new Database(join(dataDir, "emulator.sqlite"));
  try {
    db.pragma("busy_timeout = 5000");
    const { changes } = db
      .prepare("UPDATE memberships SET secret_hash = ? WHERE id = ?")
      .run(hashInviteSecret(secret), membershipId);
    if (changes !== 1) throw new Error(`no membership ${membershipId} in ${dataDir}`);
  } finally {
    db.close();
  }
  return secret;
}
