/**
 * The inbox's mail through Appwrite Messaging (issue #31 item 3): the team's notice of each submission (to
 * every confirmed studio member's e-mail targets), the sender's confirmation, and replies from the admin.
 * Delivery is Appwrite's: a message is created with an id derived from the submission (`<rowId>-team`,
 * `<rowId>-sender`, `<rowId>-reply-<time>`), Appwrite sends it and keeps its status, which the inbox shows.
 * A visitor is not an Appwrite user, so their address is an e-mail target of one blocked service user
 * (`SENDERS_USER_ID`, no password, never signs in), unless a user already has that address.
 */
import { AppwriteException, ID, Messaging, MessagingProviderType, Query, type Models } from "node-appwrite";
import type { InboxKind } from "../../model/inbox.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { studioMemberIds } from "../appwrite/team-membership.ts";
import { replySubject, senderConfirmation, teamNotice } from "./mail-texts.ts";

/** The service user holding visitors' addresses as e-mail targets (blocked: it can never sign in). */
export const SENDERS_USER_ID = "inbox-senders";

/** What the mail of a submission needs to know. */
export interface MailSubmission {
  kind: InboxKind;
  id: string;
  locale: string;
  name: string;
  email: string;
  text: string;
  createdAt: string;
}

/** A message's delivery as the inbox shows it: Appwrite's status, or `none` when no message exists. */
export interface MailStatus {
  status: "none" | Models.Message["status"];
  /** Appwrite's delivery errors (e.g. "No enabled provider found."). */
  errors: string[];
}

const messagingOf = (services: AdminServices) => new Messaging(services.client);

/**
 * Whether mail is set up: Appwrite has an enabled e-mail provider (an SMTP provider added in the console, or
 * the embedded server's `SMTP_URL`). Without one, messages are kept "not sent" and the admin says so.
 * @throws {AppwriteException} when Appwrite fails.
 */
export async function mailConfigured(services: AdminServices): Promise<boolean> {
  const { providers } = await messagingOf(services).listProviders({ queries: [Query.limit(100)] });
  return providers.some((p) => p.enabled && p.type === "email");
}

/**
 * The e-mail target for `email`: the target of the user who has that address, else one of the senders'
 * service user (created, blocked, on first use).
 * @throws {AppwriteException} when Appwrite refuses.
 */
export async function targetForAddress(services: AdminServices, email: string): Promise<string> {
  const { users } = services;
  const address = email.trim().toLowerCase();
  const owner = (await users.list({ queries: [Query.equal("email", address), Query.limit(1)] })).users[0];
  const own = owner?.targets.find((t) => t.providerType === "email" && t.identifier.toLowerCase() === address);
  if (own) return own.$id;
  try {
    await users.get({ userId: SENDERS_USER_ID });
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
    await users.create({ userId: SENDERS_USER_ID, name: "Inbox senders" });
    await users.updateStatus({ userId: SENDERS_USER_ID, status: false });
  }
  const kept = await users.listTargets({ userId: SENDERS_USER_ID, queries: [Query.equal("identifier", address)] });
  if (kept.targets[0]) return kept.targets[0].$id;
  const target = await users.createTarget({
    userId: SENDERS_USER_ID,
    targetId: ID.unique(),
    providerType: MessagingProviderType.Email,
    identifier: address,
  });
  return target.$id;
}

/**
 * Sends the mail of a new submission: the team's notice (`<id>-team`, to every confirmed studio member; none
 * when the team has no member) and the sender's confirmation (`<id>-sender`, in `locale`). Each is tried on
 * its own: one failing does not stop the other.
 * @param link the submission in the admin's inbox (absolute URL).
 * @returns the errors met (empty when both messages were handed to Appwrite); never throws.
 */
export async function sendSubmissionMail(
  services: AdminServices,
  submission: MailSubmission,
  link: string,
): Promise<Error[]> {
  const messaging = messagingOf(services);
  const errors: Error[] = [];
  const attempt = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      errors.push(error instanceof Error ? error : new Error(String(error)));
    }
  };
  await attempt(async () => {
    const members = await studioMemberIds(services.client);
    if (members.length === 0) return;
    const notice = teamNotice({ ...submission, receivedAt: submission.createdAt, link });
    await messaging.createEmail({ messageId: `${submission.id}-team`, ...notice, users: members });
  });
  await attempt(async () => {
    const target = await targetForAddress(services, submission.email);
    const confirmation = senderConfirmation(submission.kind, submission.locale);
    await messaging.createEmail({ messageId: `${submission.id}-sender`, ...confirmation, targets: [target] });
  });
  return errors;
}

/**
 * Sends a team member's reply to the sender of `submission` (plain text).
 * @returns the new message's id.
 * @throws {Error} when `content` is empty; {AppwriteException} when Appwrite refuses.
 */
export async function sendReply(
  services: AdminServices,
  submission: Pick<MailSubmission, "kind" | "id" | "locale" | "email">,
  reply: { subject?: string; content: string },
): Promise<string> {
  const content = reply.content.trim();
  if (!content) throw new Error("Write the reply before sending it.");
  const target = await targetForAddress(services, submission.email);
  const messageId = `${submission.id}-reply-${Date.now().toString(36)}`;
  await messagingOf(services).createEmail({
    messageId,
    subject: reply.subject?.trim() || replySubject(submission.kind, submission.locale),
    content,
    targets: [target],
  });
  return messageId;
}

/**
 * The delivery of each submission's notice and confirmation, by submission id: `{ team, sender }`. Messages
 * are read with one list call per 50 submissions.
 * @throws {AppwriteException} when Appwrite fails.
 */
export async function mailStatuses(
  services: AdminServices,
  ids: readonly string[],
): Promise<Map<string, { team: MailStatus; sender: MailStatus }>> {
  const messaging = messagingOf(services);
  const found = new Map<string, Models.Message>();
  for (let i = 0; i < ids.length; i += 50) {
    const messageIds = ids.slice(i, i + 50).flatMap((id) => [`${id}-team`, `${id}-sender`]);
    const { messages } = await messaging.listMessages({
      queries: [Query.equal("$id", messageIds), Query.limit(100)],
    });
    for (const message of messages) found.set(message.$id, message);
  }
  const statusOf = (message: Models.Message | undefined): MailStatus =>
    message ? { status: message.status, errors: message.deliveryErrors ?? [] } : { status: "none", errors: [] };
  return new Map(
    ids.map((id) => [id, { team: statusOf(found.get(`${id}-team`)), sender: statusOf(found.get(`${id}-sender`)) }]),
  );
}
