/**
 * The inbox list's loader and action (issue #31 items 1–2), kept out of the route module so the route stays
 * a view. See `inbox.server.ts` for who may call them.
 */
import { data } from "react-router";
import { csvFileName, inboxCsv } from "../../lib/inbox/csv.ts";
import { mailConfigured, mailStatuses } from "../../lib/inbox/mail.ts";
import { parseRetentionDays, retentionDays, setRetentionDays } from "../../lib/inbox/settings.ts";
import {
  allInboxItems,
  deleteInboxItems,
  getInboxItem,
  listInbox,
  unreadCount,
  type InboxItem,
} from "../../lib/inbox/store.ts";
import { MAX_RETENTION_DAYS, isInboxKind } from "../../model/inbox.ts";
import { getApiKeyServices } from "./appwrite.server.ts";
import { applyRetention, inboxFilterOf, memberTables, requireTeamMember } from "./inbox.server.ts";

/** Items a page of the inbox shows. */
export const INBOX_PAGE_SIZE = 25;

/** An item of the list (its `text` only the first line, at most 200 characters) with whether any of its mail failed. */
export type InboxRow = InboxItem & { mailFailed: boolean };

/**
 * The inbox page: one page of items matching the URL's filter, the unread count, whether mail is set up,
 * the retention, and whether the member may change it (owners). Applies retention first. `list` is null when
 * Appwrite failed (the page says "Failed to fetch the inbox.").
 * @throws {Response} as `requireTeamMember`.
 */
export async function loadInbox(request: Request) {
  const member = await requireTeamMember(request);
  await applyRetention();
  const url = new URL(request.url);
  const filter = inboxFilterOf(url);
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const key = getApiKeyServices();
  const owner = member.membership.roles.includes("owner");
  try {
    const tables = memberTables(member);
    const [list, unread, mailOn, retention] = await Promise.all([
      listInbox(tables, filter, page, INBOX_PAGE_SIZE),
      unreadCount(tables),
      mailConfigured(key).catch(() => false),
      retentionDays(key.client).catch(() => 0),
    ]);
    const statuses = await mailStatuses(
      key,
      list.items.map((i) => i.id),
    ).catch(() => new Map());
    const rows: InboxRow[] = list.items.map((item) => {
      const mail = statuses.get(item.id);
      // The list needs the first line only: the whole text is the detail's (and stays off the page's data).
      const text = (item.text.split(/\r?\n/).find((line) => line.trim()) ?? "").slice(0, 200);
      return { ...item, text, mailFailed: mail?.team.status === "failed" || mail?.sender.status === "failed" };
    });
    const pages = Math.max(1, Math.ceil(list.total / INBOX_PAGE_SIZE));
    return { list: { rows, total: list.total, page, pages }, filter, unread, mailOn, retention, owner };
  } catch (error) {
    console.error("[inbox] listing failed:", error);
    return { list: null, filter, unread: 0, mailOn: true, retention: 0, owner };
  }
}

/** What the list's action answers: which action ran, and its outcome (a message key and values). */
export interface InboxActionResult {
  ok: boolean;
  message: string;
  values?: Record<string, string | number>;
}

/**
 * The list's actions: `intent=delete` deletes the checked items (`item` = `<kind>:<id>`, repeated), each
 * deletion logged with the member's e-mail; `intent=retention` stores `days` (owners only).
 * @throws {Response} as `requireTeamMember`.
 */
export async function inboxAction(request: Request) {
  const member = await requireTeamMember(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "retention") {
    if (!member.membership.roles.includes("owner")) {
      return data<InboxActionResult>({ ok: false, message: "admin.inbox.retentionOwner" }, 403);
    }
    let days: number;
    try {
      days = parseRetentionDays(String(form.get("days") ?? ""));
    } catch {
      const values = { max: MAX_RETENTION_DAYS };
      return data<InboxActionResult>({ ok: false, message: "admin.inbox.retentionInvalid", values }, 400);
    }
    await setRetentionDays(getApiKeyServices().client, days);
    console.info(`[inbox] ${member.user.email} set retention to ${days > 0 ? `${days} days` : "off"}`);
    return data<InboxActionResult>({ ok: true, message: "admin.inbox.retentionSaved" });
  }
  if (intent === "delete") {
    const tables = memberTables(member);
    const picked = form
      .getAll("item")
      .slice(0, 100)
      .map((value) => String(value).split(":"))
      .flatMap(([kind, id]) => (isInboxKind(kind) && id ? [{ kind, id }] : []));
    const items = (await Promise.all(picked.map(({ kind, id }) => getInboxItem(tables, kind, id)))).filter(
      (item): item is InboxItem => item !== null,
    );
    const count = await deleteInboxItems(tables, items, { by: member.user.email });
    return data<InboxActionResult>({ ok: true, message: "admin.inbox.deleted", values: { count } });
  }
  return data<InboxActionResult>({ ok: false, message: "general.error" }, 400);
}

/**
 * The filtered inbox (the URL's `kind`, `state`, `q`) as a CSV download (UTF-8 with BOM, `inboxCsv`), newest
 * first, at most 10,000 rows; the export is logged with the member's e-mail.
 * @throws {Response} as `requireTeamMember`.
 */
export async function inboxExport(request: Request): Promise<Response> {
  const member = await requireTeamMember(request);
  const items = await allInboxItems(memberTables(member), inboxFilterOf(new URL(request.url)));
  console.info(`[inbox] ${member.user.email} exported ${items.length} submission(s) as CSV`);
  return new Response(inboxCsv(items), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
}
