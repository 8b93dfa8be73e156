import { nowDatetime, normaliseDatetime } from "../datetime.ts";
import { runList } from "../db/list.ts";
import { findMessage, messageModel, saveMessage, toMessage } from "../db/messaging.ts";
import type { MessageRecord, MessageStatus } from "../db/messaging.ts";
import { findTarget } from "../db/targets.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import {
  boolParam,
  customIdParam,
  isUid,
  pathParam,
  queriesParam,
  searchParam,
  stringArrayParam,
  stringParam,
  totalParam,
} from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { QuerySchema } from "../queries.ts";

type Body = Record<string, unknown>;

/** Fields `Query` may use on messages (AW `Validator/Queries/Messages`). */
const MESSAGE_QUERIES: QuerySchema = {
  fields: new Map([
    ...SYSTEM_QUERY_FIELDS,
    ["scheduledAt", { column: "scheduled_at", type: "datetime" }],
    ["deliveredAt", { column: "delivered_at", type: "datetime" }],
    ["deliveredTotal", { column: "delivered_total", type: "integer" }],
    ["status", { column: "status", type: "string" }],
    ["providerType", { column: "provider_type", type: "string" }],
  ]),
  selectable: false,
};

function loadMessage(ctx: RequestContext): MessageRecord {
  const message = findMessage(ctx.app.store, pathParam(ctx, "messageId"));
  if (!message) throw new AppwriteError("message_not_found");
  return message;
}

/** An optional array of IDs (AW `ArrayList(UID)`), `null` when absent. */
function idsParam(body: Body, name: string): string[] | null {
  const ids = stringArrayParam(body, name, 36);
  if (ids === undefined) return null;
  if (ids.some((id) => !isUid(id))) {
    throw invalidParam(name, "Value must a valid array and Value must be a valid UID");
  }
  return ids;
}

/** Optional `scheduledAt`: a datetime in the future (AW `DatetimeValidator(requireDateInFuture: true)`). */
function scheduledAtParam(body: Body): string | null {
  const raw = body["scheduledAt"];
  if (raw === undefined || raw === null) return null;
  const value = normaliseDatetime(raw);
  if (value === null || new Date(value).getTime() <= Date.now()) {
    throw invalidParam("scheduledAt", "Value must be valid date in the future.");
  }
  return value;
}

/** Each of `ids` must be an existing e-mail target: 404 `user_target_not_found`, 400 `message_target_not_email`. */
function checkEmailTargets(ctx: RequestContext, ids: readonly string[]): void {
  for (const id of ids) {
    const found = findTarget(ctx.app.store, id);
    if (!found) throw new AppwriteError("user_target_not_found");
    if (found.target.providerType !== "email") throw new AppwriteError("message_target_not_email");
  }
}

/** Attachments need Storage files streamed into the mail; not served yet (documented in docs/emulator.md). */
function refuseAttachments(body: Body): void {
  const attachments = stringArrayParam(body, "attachments");
  if (attachments !== undefined && attachments.length > 0) {
    throw new AppwriteError("general_not_implemented", "E-mail attachments are not supported by the embedded server.");
  }
}

/**
 * `POST /messaging/messages/email`: 201 Message. Status `draft` when `draft`, `scheduled` with a
 * `scheduledAt`, else `processing` and queued for delivery (`messaging/delivery.ts`). A non-draft
 * without topics, users or targets → 400 `message_missing_target`; unknown or non-e-mail targets
 * → 404 `user_target_not_found` / 400 `message_target_not_email` (AW `Messages/Email/Create.php`).
 */
async function createEmail(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const id = customIdParam(body, "messageId");
  const subject = stringParam(body, "subject", { required: true, max: 998 });
  const content = stringParam(body, "content", { required: true, max: 64230 });
  const topics = idsParam(body, "topics") ?? [];
  const users = idsParam(body, "users") ?? [];
  const targets = idsParam(body, "targets") ?? [];
  const cc = idsParam(body, "cc") ?? [];
  const bcc = idsParam(body, "bcc") ?? [];
  refuseAttachments(body);
  const draft = boolParam(body, "draft", false);
  const html = boolParam(body, "html", false);
  const scheduledAt = scheduledAtParam(body);
  const status: MessageStatus = draft ? "draft" : scheduledAt !== null ? "scheduled" : "processing";
  if (status !== "draft" && topics.length + users.length + targets.length === 0) {
    throw new AppwriteError("message_missing_target");
  }
  checkEmailTargets(ctx, [...targets, ...cc, ...bcc]);
  if (findMessage(ctx.app.store, id)) throw new AppwriteError("message_already_exists");
  const now = nowDatetime();
  saveMessage(ctx.app.store, {
    id,
    providerType: "email",
    topics,
    users,
    targets,
    data: { subject, content, html, cc, bcc, attachments: [] },
    status,
    scheduledAt,
    deliveredAt: null,
    deliveryErrors: null,
    deliveredTotal: 0,
    createdAt: now,
    updatedAt: now,
  });
  if (status === "processing") ctx.app.delivery.enqueue(id);
  if (status === "scheduled") ctx.app.delivery.reschedule();
  return { status: 201, json: messageModel(findMessage(ctx.app.store, id) as MessageRecord) };
}

/**
 * `PATCH /messaging/messages/email/{messageId}`: 200 Message, with Appwrite's rules
 * (AW `Messages/Email/Update.php`): a message already `processing`, `sent` or `failed` cannot change
 * (400 `message_already_processing` / `message_already_sent` / `message_already_failed`: to send a
 * failed message again, create a new one); `draft: false` without a schedule sends it now.
 */
async function updateEmail(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const message = loadMessage(ctx);
  const topics = idsParam(body, "topics");
  const users = idsParam(body, "users");
  const targets = idsParam(body, "targets");
  const cc = idsParam(body, "cc");
  const bcc = idsParam(body, "bcc");
  const subject = stringParam(body, "subject", { max: 998 });
  const content = stringParam(body, "content", { max: 64230 });
  refuseAttachments(body);
  const draftGiven = body["draft"] !== undefined && body["draft"] !== null;
  const draft = boolParam(body, "draft", false);
  const scheduledAt = scheduledAtParam(body);
  const status: MessageStatus =
    draftGiven || scheduledAt !== null
      ? draft
        ? "draft"
        : scheduledAt === null
          ? "processing"
          : "scheduled"
      : message.status;
  const count = (given: string[] | null, current: string[]) => (given ?? current).length;
  if (
    status !== "draft" &&
    count(topics, message.topics) + count(users, message.users) + count(targets, message.targets) === 0
  ) {
    throw new AppwriteError("message_missing_target");
  }
  if (message.status === "processing") throw new AppwriteError("message_already_processing");
  if (message.status === "sent") throw new AppwriteError("message_already_sent");
  if (message.status === "failed") throw new AppwriteError("message_already_failed");
  if (status === "scheduled" && scheduledAt === null && message.scheduledAt === null) {
    throw new AppwriteError("message_missing_schedule");
  }
  if (message.scheduledAt !== null && new Date(message.scheduledAt).getTime() < Date.now()) {
    throw new AppwriteError("message_already_scheduled");
  }
  checkEmailTargets(ctx, [...(targets ?? []), ...(cc ?? []), ...(bcc ?? [])]);
  const data = { ...message.data };
  if (subject !== undefined) data["subject"] = subject;
  if (content !== undefined) data["content"] = content;
  if (body["html"] !== undefined && body["html"] !== null) data["html"] = boolParam(body, "html", false);
  if (cc !== null) data["cc"] = cc;
  if (bcc !== null) data["bcc"] = bcc;
  saveMessage(ctx.app.store, {
    ...message,
    topics: topics ?? message.topics,
    users: users ?? message.users,
    targets: targets ?? message.targets,
    scheduledAt: scheduledAt ?? message.scheduledAt,
    data,
    status,
    updatedAt: nowDatetime(),
  });
  if (status === "processing") ctx.app.delivery.enqueue(message.id);
  ctx.app.delivery.reschedule();
  return { status: 200, json: messageModel(findMessage(ctx.app.store, message.id) as MessageRecord) };
}

function listMessages(ctx: RequestContext): Reply {
  const q = compileQueries(queriesParam(ctx), MESSAGE_QUERIES);
  const search = searchParam(ctx);
  const like = search === undefined ? null : `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const scope =
    like === null ? [] : [{ sql: `id LIKE ? ESCAPE '\\' OR data LIKE ? ESCAPE '\\'`, params: [like, like] }];
  const { rows, total } = runList<Record<string, unknown>>(
    ctx.app.store,
    { table: "messages", columns: "*", idColumn: "id", seqColumn: "seq", scope, noun: "Message" },
    q,
    totalParam(ctx),
  );
  return { status: 200, json: { total, messages: rows.map((r) => messageModel(toMessage(r))) } };
}

function getMessage(ctx: RequestContext): Reply {
  return { status: 200, json: messageModel(loadMessage(ctx)) };
}

/** `DELETE /messaging/messages/{messageId}`: 204; a message being sent → 400 `message_already_processing`. */
function deleteMessage(ctx: RequestContext): Reply {
  const message = loadMessage(ctx);
  if (message.status === "processing") throw new AppwriteError("message_already_processing");
  ctx.app.store.stmt("DELETE FROM messages WHERE seq = ?").run(message.seq);
  ctx.app.delivery.reschedule();
  return { status: 204, empty: true };
}

/**
 * E-mail messages (OpenAPI `messagingCreateEmail`, `messagingUpdateEmail`, `messagingListMessages`,
 * `messagingGetMessage`, `messagingDelete`; API key, scopes `messages.read`/`messages.write`).
 */
export function register(router: Router): void {
  router.add("POST", "/messaging/messages/email", "messages.write", createEmail);
  router.add("PATCH", "/messaging/messages/email/:messageId", "messages.write", updateEmail);
  router.add("GET", "/messaging/messages", "messages.read", listMessages);
  router.add("GET", "/messaging/messages/:messageId", "messages.read", getMessage);
  router.add("DELETE", "/messaging/messages/:messageId", "messages.write", deleteMessage);
}
