/**
 * The inbox detail's loader and action (issue #31 item 1): everything submitted, marked read on opening,
 * its mail's delivery, and the actions Reply (a `mailto:` link, and through Appwrite Messaging when mail is
 * set up), Archive, Mark as spam, Mark as unread and Delete. Studio team members only (`requireTeamMember`).
 */
import { data, redirect } from "react-router";
import { mailConfigured, mailStatuses, sendReply, type MailStatus } from "../../lib/inbox/mail.ts";
import { replySubject } from "../../lib/inbox/mail-texts.ts";
import { deleteInboxItems, getInboxItem, setInboxState, type InboxItem } from "../../lib/inbox/store.ts";
import { isInboxKind, isInboxState } from "../../model/inbox.ts";
import { pageNotFound } from "./access.server.ts";
import { getApiKeyServices } from "./appwrite.server.ts";
import { memberTables, requireTeamMember, type TeamMember } from "./inbox.server.ts";

/** The submission the route's params name, read through the member's session. @throws {Response} 404 */
async function itemOf(member: TeamMember, params: { kind?: string; id?: string }): Promise<InboxItem> {
  const { kind, id } = params;
  if (!isInboxKind(kind) || !id) throw pageNotFound();
  const item = await getInboxItem(memberTables(member), kind, id);
  if (!item) throw pageNotFound();
  return item;
}

/**
 * The detail page: the item (a `new` one becomes `read`, with `readAt`), the delivery of its notice and
 * confirmation, whether mail is set up, and the reply's default subject and `mailto:` link.
 * @throws {Response} 404 for a stranger or an unknown item; the login redirect when signed out.
 */
export async function loadInboxItem(request: Request, params: { kind?: string; id?: string }) {
  const member = await requireTeamMember(request);
  let item = await itemOf(member, params);
  if (item.state === "new") {
    await setInboxState(memberTables(member), item, "read");
    item = { ...item, state: "read", readAt: new Date().toISOString() };
  }
  const key = getApiKeyServices();
  const none: MailStatus = { status: "none", errors: [] };
  const [statuses, mailOn] = await Promise.all([
    mailStatuses(key, [item.id]).catch(() => new Map<string, { team: MailStatus; sender: MailStatus }>()),
    mailConfigured(key).catch(() => false),
  ]);
  const subject = replySubject(item.kind, item.locale);
  const mailto = `mailto:${item.email}?subject=${encodeURIComponent(subject)}`;
  return { item, mail: statuses.get(item.id) ?? { team: none, sender: none }, mailOn, subject, mailto };
}

/** What the detail's action answers (a message key of `admin.inbox`). */
export interface InboxItemResult {
  ok: boolean;
  message: string;
  values?: Record<string, string>;
}

/**
 * The detail's actions: `intent=state` with `state` (archived, spam, read; `new` returns to the list, so
 * the item is not marked read again), `intent=delete` (logged, then back to the list), `intent=reply` with
 * `subject` and `body` (sent through Messaging; the item becomes `replied`).
 * @throws {Response} 404 as the loader; redirects after delete and "Mark as unread".
 */
export async function inboxItemAction(request: Request, params: { kind?: string; id?: string }) {
  const member = await requireTeamMember(request);
  const item = await itemOf(member, params);
  const form = await request.formData();
  const intent = form.get("intent");
  const tables = memberTables(member);
  if (intent === "delete") {
    await deleteInboxItems(tables, [item], { by: member.user.email });
    throw redirect("/admin/inbox");
  }
  if (intent === "state") {
    const state = form.get("state");
    if (!isInboxState(state)) return data<InboxItemResult>({ ok: false, message: "general.error" }, 400);
    await setInboxState(tables, item, state);
    if (state === "new") throw redirect("/admin/inbox");
    return data<InboxItemResult>({ ok: true, message: "admin.inbox.stateChanged", values: { state } });
  }
  if (intent === "reply") {
    const body = String(form.get("body") ?? "");
    if (!body.trim()) return data<InboxItemResult>({ ok: false, message: "admin.inbox.replyEmpty" }, 400);
    try {
      const subject = String(form.get("subject") ?? "").slice(0, 200);
      await sendReply(getApiKeyServices(), item, { subject, content: body.slice(0, 10_000) });
    } catch (error) {
      console.error(`[inbox] reply to ${item.kind} ${item.id} failed:`, (error as Error).message);
      return data<InboxItemResult>({ ok: false, message: "admin.inbox.replyFailed" }, 502);
    }
    await setInboxState(tables, item, "replied");
    console.info(`[inbox] ${member.user.email} replied to ${item.kind} ${item.id}`);
    return data<InboxItemResult>({ ok: true, message: "admin.inbox.replySent" });
  }
  return data<InboxItemResult>({ ok: false, message: "general.error" }, 400);
}
