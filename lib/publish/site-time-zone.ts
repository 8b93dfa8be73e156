/**
 * The site's time zone (issue #29 item 2): the zone the admin's date and time pickers, its flash messages and
 * lists, and `studio`'s plan speak in. An owner sets it on the admin's Team page; it is kept in the studio
 * team's preferences (Appwrite Teams `prefs`, as the inbox's retention is: `lib/inbox/settings.ts`) as
 * `siteTimeZone`, so every site process and `studio` read one value. Unset, the environment's
 * `SITE_TIME_ZONE` is the default, else UTC. Stored instants stay UTC; the zone only says how to read them.
 */
import { AppwriteException, Teams, type Client } from "node-appwrite";
import { STUDIO_TEAM_ID } from "../../model/team.ts";
import { assertTimeZone, DEFAULT_TIME_ZONE, isTimeZone } from "../text/time-zone.ts";

/** The key of the team preference holding the zone. */
export const TIME_ZONE_PREF = "siteTimeZone";

/** How long a process reuses the zone it read, in ms (a change made elsewhere is seen within it). */
const CACHE_MS = 5_000;
let cached: { zone: string; at: number } | null = null;
let warned = false;

/**
 * The default zone: `SITE_TIME_ZONE` from `env` when it is an IANA name `Intl` knows, else UTC (an unknown
 * name is reported once on the console, naming what to write).
 */
export function defaultTimeZone(env: NodeJS.ProcessEnv = process.env): string {
  const zone = env.SITE_TIME_ZONE?.trim();
  if (!zone) return DEFAULT_TIME_ZONE;
  if (isTimeZone(zone)) return zone;
  if (!warned) {
    warned = true;
    console.warn(`SITE_TIME_ZONE="${zone}" is not a time zone (write an IANA name such as Asia/Riyadh); using UTC.`);
  }
  return DEFAULT_TIME_ZONE;
}

/**
 * The site's time zone: the team's `siteTimeZone`, else `defaultTimeZone()`. `client` uses the API key.
 * Read at most once every 5 s per process.
 * @throws {AppwriteException} when Appwrite fails (a missing team is not a failure: the default).
 */
export async function siteTimeZone(client: Client, now = Date.now()): Promise<string> {
  if (cached && now - cached.at < CACHE_MS) return cached.zone;
  let zone = defaultTimeZone();
  try {
    const prefs = (await new Teams(client).getPrefs({ teamId: STUDIO_TEAM_ID })) as Record<string, unknown>;
    if (isTimeZone(prefs[TIME_ZONE_PREF])) zone = prefs[TIME_ZONE_PREF];
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  }
  cached = { zone, at: now };
  return zone;
}

/**
 * Sets the site's time zone, keeping the team's other preferences. `client`: the API key (Appwrite lets
 * only team owners and keys write team prefs); the caller checks the user is an owner.
 * @throws {RangeError} when `zone` is not an IANA time zone (the message says what to write);
 * {AppwriteException} 404 when the studio team does not exist.
 */
export async function setSiteTimeZone(client: Client, zone: string): Promise<void> {
  assertTimeZone(zone);
  const teams = new Teams(client);
  const prefs = (await teams.getPrefs({ teamId: STUDIO_TEAM_ID })) as Record<string, unknown>;
  await teams.updatePrefs({ teamId: STUDIO_TEAM_ID, prefs: { ...prefs, [TIME_ZONE_PREF]: zone } });
  cached = { zone, at: Date.now() };
}
