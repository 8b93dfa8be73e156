/**
 * The inbox's retention setting (issue #31 item 2: "delete submissions older than N days; off by default"),
 * kept in the studio team's preferences (Appwrite Teams `prefs`) as `inboxRetentionDays`, so every site
 * process and `studio` read the same value without a table of their own.
 */
import { AppwriteException, Teams, type Client } from "node-appwrite";
import { MAX_RETENTION_DAYS } from "../../model/inbox.ts";
import { STUDIO_TEAM_ID } from "../../model/team.ts";

const KEY = "inboxRetentionDays";

/**
 * The retention in days, or 0 when off (none set, or the team does not exist yet). `client`: the API key.
 * @throws {AppwriteException} when Appwrite fails (other than 404).
 */
export async function retentionDays(client: Client): Promise<number> {
  try {
    const prefs = (await new Teams(client).getPrefs({ teamId: STUDIO_TEAM_ID })) as Record<string, unknown>;
    const days = prefs[KEY];
    return typeof days === "number" && Number.isInteger(days) && days > 0 ? Math.min(days, MAX_RETENTION_DAYS) : 0;
  } catch (error) {
    if (error instanceof AppwriteException && error.code === 404) return 0;
    throw error;
  }
}

/**
 * Parses a retention the admin or `studio` was given: an empty string or `0` is off (0); otherwise a whole
 * number of days from 1 to `MAX_RETENTION_DAYS`.
 * @throws {RangeError} saying what is accepted, for anything else.
 */
export function parseRetentionDays(input: string): number {
  const text = input.trim();
  if (text === "" || text === "0") return 0;
  const days = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(days >= 1 && days <= MAX_RETENTION_DAYS)) {
    throw new RangeError(`Retention must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or 0 for off.`);
  }
  return days;
}

/**
 * Stores the retention (0 = off), keeping the team's other preferences. `client`: the API key (Appwrite
 * lets only team owners and keys write team prefs).
 * @throws {AppwriteException} 404 when the studio team does not exist; others as Appwrite answers.
 */
export async function setRetentionDays(client: Client, days: number): Promise<void> {
  const teams = new Teams(client);
  const prefs = (await teams.getPrefs({ teamId: STUDIO_TEAM_ID })) as Record<string, unknown>;
  await teams.updatePrefs({ teamId: STUDIO_TEAM_ID, prefs: { ...prefs, [KEY]: days } });
}
