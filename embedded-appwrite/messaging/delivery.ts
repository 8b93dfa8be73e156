import { createTransport } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport/index.js";
import { nowDatetime } from "../datetime.ts";
import { defaultProvider, findMessage, findProvider, saveMessage } from "../db/messaging.ts";
import type { MessageRecord, ProviderRecord } from "../db/messaging.ts";
import type { Store } from "../db/store.ts";
import { findUser } from "../db/users.ts";
import { targetsByIds } from "../db/targets.ts";
import type { Target } from "../db/targets.ts";

/** Longest wait `setTimeout` takes (about 24.8 days); later schedules are re-armed. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * nodemailer options for an Appwrite SMTP provider (AW worker `getEmailAdapter` → utopia SMTP):
 * the first of its `;`-separated hosts (`host[:port]`), `ssl` = implicit TLS, `tls` = STARTTLS
 * required, `autoTLS` = STARTTLS when offered; user name and password when set.
 */
export function transportOptions(p: ProviderRecord): SMTPTransport.Options {
  const c = p.credentials;
  const o = p.options;
  const [first = ""] = String(c["host"] ?? "").split(";");
  const [host = "", portText] = first.trim().split(":");
  const username = String(c["username"] ?? "");
  return {
    host,
    port: portText !== undefined ? Number(portText) : Number(c["port"] ?? 587),
    secure: o["encryption"] === "ssl",
    requireTLS: o["encryption"] === "tls",
    ignoreTLS: o["encryption"] !== "tls" && o["autoTLS"] === false,
    ...(username !== "" ? { auth: { user: username, pass: String(c["password"] ?? "") } } : {}),
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  };
}

function address(name: unknown, email: unknown): string | { name: string; address: string } {
  return typeof name === "string" && name !== "" ? { name, address: String(email) } : String(email);
}

/**
 * Delivers e-mail messages the way Appwrite's Messaging worker does (AW `Workers/Messaging.php`
 * `sendExternalMessage`): a `processing` message's recipients are its users' e-mail targets and its
 * e-mail targets (topics have no subscribers here); no recipient → `failed` with `No valid recipients
 * found.`; no enabled e-mail provider → `failed` with `No enabled provider found.`; otherwise each
 * recipient gets one mail (To: that recipient, Cc/Bcc: the `cc`/`bcc` targets) through its target's
 * provider or the default one, and the message ends `sent`, or `failed` with one
 * `Failed sending to target <address> with error: <reason>` per failure, `deliveredTotal` and
 * `deliveredAt`. Scheduled messages start when due. A message never leaves the store: one interrupted
 * by a shutdown is still `processing` and is sent again at the next start.
 */
export class MessageDelivery {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly store: Store) {}

  /** Resume messages left `processing` by a previous run and arm the schedule timer. */
  start(): void {
    const stuck = this.store.stmt("SELECT id FROM messages WHERE status = 'processing' ORDER BY seq").pluck().all();
    for (const id of stuck as string[]) this.enqueue(id);
    this.reschedule();
  }

  /** Send message `id` soon (after the current request has answered). */
  enqueue(id: string): void {
    if (this.closed) return;
    const job = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.deliver(id))
      .catch((error: unknown) => console.error(`[emulator] message ${id} could not be processed`, error))
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }

  /** Re-arm the timer for the earliest scheduled message (call after a message is created, changed or deleted). */
  reschedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    const next = this.store
      .stmt("SELECT scheduled_at FROM messages WHERE status = 'scheduled' ORDER BY scheduled_at LIMIT 1")
      .pluck()
      .get() as string | undefined;
    if (next === undefined) return;
    const wait = Math.min(Math.max(0, new Date(next).getTime() - Date.now()), MAX_TIMER_MS);
    this.timer = setTimeout(() => this.startDue(), wait);
    this.timer.unref();
  }

  /**
   * Stop scheduling and wait up to `graceMs` (default 1 s) for the sends under way. A send still
   * running then writes nothing more: its message stays `processing` and is sent at the next start.
   */
  async close(graceMs = 1000): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise<void>((resolve) => {
        grace = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(grace);
  }

  private startDue(): void {
    const due = this.store
      .stmt("SELECT id FROM messages WHERE status = 'scheduled' AND scheduled_at <= ? ORDER BY scheduled_at")
      .pluck()
      .all(nowDatetime()) as string[];
    for (const id of due) {
      const message = findMessage(this.store, id);
      if (!message) continue;
      saveMessage(this.store, { ...message, status: "processing", updatedAt: nowDatetime() });
      this.enqueue(id);
    }
    this.reschedule();
  }

  private recipients(message: MessageRecord): Target[] {
    const fromUsers = message.users.flatMap((userId) => {
      const user = findUser(this.store, userId);
      return ((user?.targets ?? []) as Target[]).filter((t) => t.providerType === message.providerType);
    });
    const direct = targetsByIds(this.store, message.targets).filter((t) => t.providerType === message.providerType);
    const seen = new Set<string>();
    return [...fromUsers, ...direct].filter((t) => !seen.has(t.identifier) && seen.add(t.identifier));
  }

  private finish(message: MessageRecord, fields: Partial<MessageRecord>): void {
    if (this.closed) return; // left `processing`: resumed at the next start
    if (!findMessage(this.store, message.id)) return; // deleted meanwhile
    saveMessage(this.store, { ...message, ...fields, updatedAt: nowDatetime() });
  }

  private async deliver(id: string): Promise<void> {
    if (this.closed) return;
    const message = findMessage(this.store, id);
    if (!message || message.status !== "processing") return;
    const recipients = this.recipients(message);
    if (recipients.length === 0) {
      this.finish(message, { status: "failed", deliveryErrors: ["No valid recipients found."] });
      return;
    }
    const fallback = defaultProvider(this.store, message.providerType);
    if (!fallback) {
      this.finish(message, { status: "failed", deliveryErrors: ["No enabled provider found."] });
      return;
    }
    const data = message.data;
    const cc = targetsByIds(this.store, (data["cc"] as string[] | undefined) ?? []).map((t) => t.identifier);
    const bcc = targetsByIds(this.store, (data["bcc"] as string[] | undefined) ?? []).map((t) => t.identifier);
    let deliveredTotal = 0;
    const deliveryErrors: string[] = [];
    for (const target of recipients) {
      if (this.closed) return; // left `processing`: resumed at the next start
      const own = target.providerId ? findProvider(this.store, target.providerId) : undefined;
      const provider = own?.enabled && own.type === message.providerType ? own : fallback;
      const transport = createTransport(transportOptions(provider));
      const o = provider.options;
      const html = data["html"] === true;
      try {
        await transport.sendMail({
          from: address(o["fromName"], o["fromEmail"]),
          to: target.identifier,
          ...(cc.length > 0 ? { cc } : {}),
          ...(bcc.length > 0 ? { bcc } : {}),
          ...(typeof o["replyToEmail"] === "string" && o["replyToEmail"] !== ""
            ? { replyTo: address(o["replyToName"] || o["fromName"], o["replyToEmail"]) }
            : {}),
          subject: String(data["subject"] ?? ""),
          ...(html ? { html: String(data["content"] ?? "") } : { text: String(data["content"] ?? "") }),
          ...(typeof o["mailer"] === "string" && o["mailer"] !== "" ? { headers: { "X-Mailer": o["mailer"] } } : {}),
        });
        deliveredTotal += 1;
      } catch (error) {
        deliveryErrors.push(
          `Failed sending to target ${target.identifier} with error: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        transport.close();
      }
    }
    if (deliveryErrors.length === 0 && deliveredTotal === 0) deliveryErrors.push("Unknown error");
    this.finish(message, {
      status: deliveryErrors.length > 0 ? "failed" : "sent",
      deliveryErrors,
      deliveredTotal,
      deliveredAt: nowDatetime(),
    });
  }
}
