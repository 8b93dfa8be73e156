import { createHash, randomBytes } from "node:crypto";
import type { Store } from "./store.ts";

/** A stored team (Appwrite `Team` model); `total` counts its confirmed memberships. */
export interface TeamRecord {
  seq: number;
  id: string;
  name: string;
  total: number;
  prefs: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A stored membership with its team's name and its member's name, email and MFA flag. */
export interface MembershipRecord {
  seq: number;
  id: string;
  teamSeq: number;
  teamId: string;
  teamName: string;
  userSeq: number;
  userId: string;
  userName: string;
  userEmail: string;
  userMfa: boolean;
  roles: string[];
  invited: string;
  /** `""` while the invitation is pending (Appwrite's `joined: null`, served as `""`). */
  joined: string;
  confirm: boolean;
  /** SHA-256 (hex) of the invitation secret; `""` when there is none (the creator's membership). */
  secretHash: string;
  createdAt: string;
  updatedAt: string;
}

/** Raw `team_view` / `membership_view` row. */
export type TeamRow = Record<string, unknown>;

/** Map a `team_view` row to a record. */
export function toTeam(row: TeamRow): TeamRecord {
  return {
    seq: row["seq"] as number,
    id: row["id"] as string,
    name: row["name"] as string,
    total: row["total"] as number,
    prefs: JSON.parse(row["prefs"] as string) as Record<string, unknown>,
    createdAt: row["created_at"] as string,
    updatedAt: row["updated_at"] as string,
  };
}

/** Map a `membership_view` row to a record. */
export function toMembership(row: TeamRow): MembershipRecord {
  return {
    seq: row["seq"] as number,
    id: row["id"] as string,
    teamSeq: row["team_seq"] as number,
    teamId: row["team_id"] as string,
    teamName: row["team_name"] as string,
    userSeq: row["user_seq"] as number,
    userId: row["user_id"] as string,
    userName: row["user_name"] as string,
    userEmail: (row["user_email"] as string | null) ?? "",
    userMfa: row["user_mfa"] === 1,
    roles: JSON.parse(row["roles"] as string) as string[],
    invited: row["invited"] as string,
    joined: row["joined"] as string,
    confirm: row["confirm"] === 1,
    secretHash: row["secret_hash"] as string,
    createdAt: row["created_at"] as string,
    updatedAt: row["updated_at"] as string,
  };
}

/** The team with public ID `id`, or `undefined`. */
export function findTeam(store: Store, id: string): TeamRecord | undefined {
  const row = store.stmt("SELECT * FROM team_view WHERE id = ?").get(id) as TeamRow | undefined;
  return row ? toTeam(row) : undefined;
}

/** The membership with public ID `id`, or `undefined`. */
export function findMembership(store: Store, id: string): MembershipRecord | undefined {
  const row = store.stmt("SELECT * FROM membership_view WHERE id = ?").get(id) as TeamRow | undefined;
  return row ? toMembership(row) : undefined;
}

/** The membership of user `userSeq` in team `teamSeq` (pending or confirmed), or `undefined`. */
export function findMembershipOf(store: Store, teamSeq: number, userSeq: number): MembershipRecord | undefined {
  const row = store.stmt("SELECT * FROM membership_view WHERE team_seq = ? AND user_seq = ?").get(teamSeq, userSeq) as
    TeamRow | undefined;
  return row ? toMembership(row) : undefined;
}

/** SHA-256 (hex) of an invitation secret: only the hash is stored (AW `proofForToken->hash`). */
export function hashInviteSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A new invitation secret: 64 random bytes as hex (AW `Token` proof: 256 characters of entropy). */
export function newInviteSecret(): string {
  return randomBytes(64).toString("hex");
}

/**
 * Roles a user holds through confirmed memberships (AW `Documents/User.php getRoles`; REFERENCE §6):
 * `team:<teamId>`, `member:<membershipId>` and `team:<teamId>/<role>` for each membership role. Pending
 * invitations give none.
 */
export function membershipRoles(store: Store, userSeq: number): string[] {
  const rows = store
    .stmt("SELECT id, team_id, roles FROM membership_view WHERE user_seq = ? AND confirm = 1 ORDER BY seq")
    .all(userSeq) as { id: string; team_id: string; roles: string }[];
  return rows.flatMap((row) => [
    `team:${row.team_id}`,
    `member:${row.id}`,
    ...(JSON.parse(row.roles) as string[]).map((role) => `team:${row.team_id}/${role}`),
  ]);
}

/** Appwrite `Team` model (AW `Model/Team.php`; OpenAPI `team`). */
export function teamModel(team: TeamRecord): Record<string, unknown> {
  return {
    $id: team.id,
    $createdAt: team.createdAt,
    $updatedAt: team.updatedAt,
    name: team.name,
    total: team.total,
    prefs: team.prefs,
  };
}

/**
 * Appwrite `Membership` model (AW `Model/Membership.php`; OpenAPI `membership`) with the team's name
 * and the member's name, email and MFA flag (Appwrite's default membership privacy shows them all).
 * The invitation secret is never part of it.
 */
export function membershipModel(m: MembershipRecord): Record<string, unknown> {
  return {
    $id: m.id,
    $createdAt: m.createdAt,
    $updatedAt: m.updatedAt,
    userId: m.userId,
    userName: m.userName,
    userEmail: m.userEmail,
    teamId: m.teamId,
    teamName: m.teamName,
    invited: m.invited,
    joined: m.joined,
    confirm: m.confirm,
    mfa: m.userMfa,
    roles: m.roles,
  };
}
