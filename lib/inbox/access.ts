/**
 * Who reads the inbox from `studio` (issue #31 item 4: "same permissions: API key or a team member's
 * session"): with `APPWRITE_SESSION` set (a studio member's Appwrite session secret), through that session,
 * after checking the membership (`studioMembership`), so Appwrite's `team:studio` permissions apply; else
 * through the API key, which is the operator's.
 */
import { Account, TablesDB } from "node-appwrite";
import { AbortError, EXIT } from "../errors.ts";
import { AppwriteClient, type AdminServices } from "../appwrite/client.ts";
import { studioMembership } from "../appwrite/team-membership.ts";

/** The inbox's reader: the `TablesDB` to act through, and who acts (for deletion logs). */
export interface InboxReader {
  tablesDB: TablesDB;
  by: string;
}

/**
 * The reader for `session` (a session secret), or the API key's when it is empty or undefined.
 * @throws {AbortError} exit 3 when the session is not valid, or its user is not a confirmed studio member.
 */
export async function inboxReader(services: AdminServices, session: string | undefined): Promise<InboxReader> {
  if (!session) return { tablesDB: services.tablesDB, by: "studio (API key)" };
  const { endpoint, projectId } = services.target;
  const client = new AppwriteClient().setEndpoint(endpoint).setProject(projectId).setSession(session);
  const user = await new Account(client).get().catch((error: unknown) => {
    throw new AbortError("APPWRITE_SESSION is not a valid Appwrite session.", {
      exitCode: EXIT.backend,
      nextSteps: "Sign in again and set APPWRITE_SESSION to the new session secret, or unset it to use the API key.",
      cause: error,
    });
  });
  if (!(await studioMembership(client, user.$id))) {
    throw new AbortError(`${user.email || user.$id} is not a member of the studio team, so the inbox is not theirs.`, {
      exitCode: EXIT.backend,
      nextSteps: "Ask the team's owner to invite this account, or unset APPWRITE_SESSION to use the API key.",
    });
  }
  return { tablesDB: new TablesDB(client), by: `${user.email || user.$id} (studio)` };
}
