/**
 * The server half of the admin's inbox (issue #31 items 1–2): who may open it, and what its pages read and
 * change. Only confirmed members of the studio team (`studioMembership`) get past `requireTeamMember`; the
 * inbox then reads and writes submissions through the member's own session, so Appwrite's `team:studio`
 * permissions decide as well (SECURITY C65: a stranger gets 404 from every route and nothing from Appwrite).
 * Mail (Messaging) and the team's prefs are the API key's, used only after the membership check.
 */
import { studioMembership, type StudioMembership } from "../../lib/appwrite/team-membership.ts";
import { retentionDays } from "../../lib/inbox/settings.ts";
import { sweepRetention, unreadCount, type InboxFilter } from "../../lib/inbox/store.ts";
import { isInboxKind, isInboxState } from "../../model/inbox.ts";
import type { SignedInUser } from "../../server/auth/account.ts";
import { sessionServices } from "./admin.server.ts";
import { pageNotFound } from "./access.server.ts";
import { getApiKeyServices } from "./appwrite.server.ts";
import { requireUser } from "./session.server.ts";

/** A signed-in member of the studio team, with their session secret. */
export interface TeamMember {
  user: SignedInUser;
  secret: string;
  membership: StudioMembership;
}

/**
 * The signed-in studio member, or: a redirect to the login page when signed out (`requireUser`); 404 when
 * signed in outside the team (the inbox does not exist for them, SECURITY C65).
 * @throws {Response} the redirect or the 404.
 */
export async function requireTeamMember(request: Request): Promise<TeamMember> {
  const signedIn = await requireUser(request);
  const membership = await studioMembership(getApiKeyServices().client, signedIn.user.id);
  if (!membership) throw pageNotFound();
  return { ...signedIn, membership };
}

/** The member's session TablesDB: what the inbox reads and writes through. */
export function memberTables(member: TeamMember) {
  return sessionServices(member.secret).tablesDB;
}

/** The inbox filter of a URL's query: `?kind=`, `?state=`, `?q=` (unknown values are ignored). */
export function inboxFilterOf(url: URL): InboxFilter {
  const kind = url.searchParams.get("kind");
  const state = url.searchParams.get("state");
  const q = url.searchParams.get("q")?.trim() ?? "";
  return {
    ...(isInboxKind(kind) ? { kind } : {}),
    ...(isInboxState(state) ? { state } : {}),
    ...(q ? { q } : {}),
  };
}

/** How often the site applies retention at most, in ms (1 minute): on inbox loads and on its timer. */
const RETENTION_EVERY_MS = 60_000;
let lastRetention = 0;
let retentionTimer: NodeJS.Timeout | undefined;

/**
 * Applies the retention setting (issue #31 item 2) if it was not applied in the last minute: deletes the
 * submissions older than the team's `inboxRetentionDays` (off by default), each deletion logged. Called on
 * every inbox load, and hourly by a timer this call starts (unref'd: it never keeps the process alive), so
 * the site needs no separate worker. Failures are logged, never thrown.
 */
export async function applyRetention(now = Date.now()): Promise<void> {
  retentionTimer ??= setInterval(() => void applyRetention(), 3_600_000).unref();
  if (now - lastRetention < RETENTION_EVERY_MS) return;
  lastRetention = now;
  try {
    const services = getApiKeyServices();
    const days = await retentionDays(services.client);
    if (days > 0) await sweepRetention(services.tablesDB, days, new Date(now));
  } catch (error) {
    console.error("[inbox] applying retention failed:", (error as Error).message);
  }
}

/**
 * The admin navigation's inbox entry for a studio member (the caller has checked the membership): `{ unread }`
 * read with the member's session `secret`, or null when Appwrite cannot answer (the navigation then shows no
 * inbox link rather than failing every admin page).
 */
export async function inboxNav(secret: string): Promise<{ unread: number } | null> {
  try {
    return { unread: await unreadCount(sessionServices(secret).tablesDB) };
  } catch (error) {
    console.error("[inbox] the navigation's count failed:", (error as Error).message);
    return null;
  }
}
