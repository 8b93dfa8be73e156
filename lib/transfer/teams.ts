/**
 * The teams phase of a transfer (issue #32 item 4): every team with its id and name, and its confirmed members
 * with their roles (the studio team: owner and editors). Members are added with the API key, which Appwrite
 * confirms at once ("If initiated from a Server SDK, the new member will be added automatically"); membership
 * ids are Appwrite's own and not kept. Pending invitations are not moved (their secrets were sent by e-mail
 * from the source): they are reported, to be sent again.
 */
import type { Models } from "node-appwrite";
import { listAll } from "../appwrite/paginate.ts";
import { canonicalMembership } from "./canonical.ts";
import { countsFor, type PhaseCounts, type PhaseOptions } from "./events.ts";
import type { TransferSide } from "./side.ts";
import { isNotFound } from "../appwrite/client.ts";

/** Every team of `side`. */
export function allTeams(side: TransferSide): Promise<Models.Team<Models.Preferences>[]> {
  return listAll((queries) => side.teams.list({ queries }).then((page) => page.teams));
}

/** Every membership of `teamId` on `side` (none when the team does not exist there). */
export async function allMemberships(side: TransferSide, teamId: string): Promise<Models.Membership[]> {
  try {
    return await listAll((queries) => side.teams.listMemberships({ teamId, queries }).then((page) => page.memberships));
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

async function teamOn(side: TransferSide, teamId: string): Promise<Models.Team<Models.Preferences> | null> {
  try {
    return await side.teams.get({ teamId });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/**
 * Copies every team and its confirmed memberships from `source` to `target` (users must be there first).
 * @returns one `PhaseCounts` per team: the team itself and its members, created, updated or unchanged.
 * @throws {AppwriteException} when a side refuses (a missing `teams.read`/`teams.write` scope: 401).
 */
export async function transferTeams(
  source: TransferSide,
  target: TransferSide,
  options: PhaseOptions,
): Promise<PhaseCounts[]> {
  const results: PhaseCounts[] = [];
  for (const team of await allTeams(source)) {
    const counts = countsFor("teams", team.$id);
    const there = await teamOn(target, team.$id);
    if (!there) counts.create++;
    else if (there.name !== team.name) counts.update++;
    else counts.unchanged++;
    if (!options.dryRun && !there) await target.teams.create({ teamId: team.$id, name: team.name });
    if (!options.dryRun && there && there.name !== team.name)
      await target.teams.updateName({ teamId: team.$id, name: team.name });

    const members = await allMemberships(source, team.$id);
    const pending = members.filter((m) => !m.confirm);
    if (pending.length > 0) {
      options.events.onNote?.(
        `${pending.length} pending invitation(s) to team ${team.$id} not moved (${pending.map((m) => m.userEmail).join(", ")}): invite them again on the target.`,
      );
    }
    const onTarget = new Map((there ? await allMemberships(target, team.$id) : []).map((m) => [m.userId, m]));
    for (const member of members.filter((m) => m.confirm)) {
      const current = onTarget.get(member.userId);
      if (current?.confirm && canonicalMembership(current) === canonicalMembership(member)) {
        counts.unchanged++;
        continue;
      }
      if (current) counts.update++;
      else counts.create++;
      if (options.dryRun) continue;
      if (current)
        await target.teams.updateMembership({ teamId: team.$id, membershipId: current.$id, roles: member.roles });
      else await target.teams.createMembership({ teamId: team.$id, roles: member.roles, userId: member.userId });
    }
    options.events.onProgress?.({ phase: "teams", scope: team.$id, done: members.length, total: members.length });
    options.events.onPhase?.(counts);
    results.push(counts);
  }
  return results;
}
