import { resolveUser, rolesOf } from "../auth/caller.ts";
import { uniqueId } from "../ids.ts";
import type { AppState } from "../http/context.ts";
import { accountModel, findUser } from "../db/users.ts";
import type { UserRecord } from "../db/users.ts";
import type { RealtimeEvent } from "./bus.ts";

/** Realtime error codes (AW `app/config/errors.php`, `errors.json`): WebSocket close codes. */
export const POLICY_VIOLATION = 1008;
export const MESSAGE_FORMAT_INVALID = 1003;

/** A protocol error answered with `{"type":"error","data":{code,message}}`; 1008 also closes. */
export class RealtimeError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Subscription {
  channels: string[];
  queries: string[];
}

/** The transport a connection writes to (a `ws` socket in production). */
export interface Outbound {
  send(text: string): void;
}

/**
 * Appwrite's `Realtime::convertChannels`: `account.*` channels named by the client are dropped, and
 * `account` also subscribes `account.<userId>` for a signed-in user.
 */
export function convertChannels(channels: readonly string[], userId: string | undefined): string[] {
  const result: string[] = [];
  for (const channel of channels) {
    if (channel.startsWith("account.")) continue;
    if (!result.includes(channel)) result.push(channel);
    if (channel === "account" && userId && !result.includes(`account.${userId}`)) result.push(`account.${userId}`);
  }
  return result;
}

function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

function stringList(value: unknown, what: string): string[] {
  if (!isList(value) || value.some((v) => typeof v !== "string")) {
    throw new RealtimeError(MESSAGE_FORMAT_INVALID, `${what} is not a valid array.`);
  }
  return value as string[];
}

/**
 * One realtime client: its roles, user and subscriptions, and the handling of its messages as
 * Appwrite 1.9's `app/realtime.php` `onMessage` does it (REFERENCE §4 "Realtime").
 */
export class RealtimeConnection {
  private readonly subscriptions = new Map<string, Subscription>();
  private roles: readonly string[];
  private user: UserRecord | undefined;

  constructor(
    private readonly app: AppState,
    private readonly out: Outbound,
    caller: { roles: readonly string[]; user?: UserRecord },
    private readonly ip: string,
  ) {
    this.roles = caller.roles;
    this.user = caller.user;
  }

  /** The Account model of the signed-in user, or null for a guest. */
  account(): Record<string, unknown> | null {
    return this.user ? accountModel(this.user) : null;
  }

  /**
   * Add a subscription (message or URL style); `id` defaults to a new unique ID. Returns the
   * stored subscription with its converted channels.
   */
  subscribe(channels: readonly string[], queries: readonly string[], id = uniqueId()): Subscription & { id: string } {
    const subscription = { channels: convertChannels(channels, this.user?.id), queries: [...queries] };
    this.subscriptions.set(id, subscription);
    return { id, ...subscription };
  }

  private send(message: unknown): void {
    this.out.send(JSON.stringify(message));
  }

  /**
   * Answer one client message: `ping` → `pong`; `authentication` (`data.session`), `subscribe`
   * (`data: [{subscriptionId?, channels, queries?}]`), `unsubscribe` (`data: [{subscriptionId}]`) →
   * a `response` message. Throws `RealtimeError` 1003 for a malformed message, payload or session.
   */
  handle(raw: string): void {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      message = null;
    }
    if (message === null || typeof message !== "object" || !("type" in message || "data" in message)) {
      throw new RealtimeError(MESSAGE_FORMAT_INVALID, "Message format is not valid.");
    }
    const { type, data } = message as { type?: unknown; data?: unknown };
    switch (type) {
      case "ping":
        this.send({ type: "pong" });
        return;
      case "authentication":
        this.authenticate(data);
        return;
      case "subscribe":
        this.subscribeMessage(data);
        return;
      case "unsubscribe":
        this.unsubscribeMessage(data);
        return;
      default:
        throw new RealtimeError(MESSAGE_FORMAT_INVALID, "Message type is not valid.");
    }
  }

  private authenticate(data: unknown): void {
    const session =
      data !== null && typeof data === "object" ? (data as Record<string, unknown>)["session"] : undefined;
    if (typeof session !== "string") throw new RealtimeError(MESSAGE_FORMAT_INVALID, "Payload is not valid.");
    let caller;
    try {
      caller = resolveUser(this.app, session, undefined, this.ip);
    } catch {
      caller = undefined;
    }
    if (!caller?.user) throw new RealtimeError(MESSAGE_FORMAT_INVALID, "Session is not valid.");
    this.roles = caller.roles;
    this.user = caller.user;
    for (const subscription of this.subscriptions.values()) {
      subscription.channels = convertChannels(subscription.channels, this.user.id);
    }
    this.send({ type: "response", data: { to: "authentication", success: true, user: this.account() } });
  }

  private subscribeMessage(data: unknown): void {
    if (!isList(data)) throw new RealtimeError(MESSAGE_FORMAT_INVALID, "Payload is not valid.");
    const parsed = data.map((entry) => {
      if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
        throw new RealtimeError(MESSAGE_FORMAT_INVALID, "Each subscribe payload must be an object.");
      }
      const payload = entry as Record<string, unknown>;
      if (!("channels" in payload))
        throw new RealtimeError(MESSAGE_FORMAT_INVALID, "channels is not present in payload.");
      const channels = stringList(payload["channels"], "channels");
      const queries = stringList(payload["queries"] ?? [], "queries");
      const id = payload["subscriptionId"];
      return { id: typeof id === "string" && id !== "" ? id : uniqueId(), channels, queries };
    });
    const stored = parsed.map((p) => this.subscribe(p.channels, p.queries, p.id));
    this.send({
      type: "response",
      data: {
        to: "subscribe",
        success: true,
        subscriptions: stored.map((s) => ({ subscriptionId: s.id, channels: s.channels, queries: s.queries })),
      },
    });
  }

  private unsubscribeMessage(data: unknown): void {
    if (!isList(data)) throw new RealtimeError(MESSAGE_FORMAT_INVALID, "Payload is not valid.");
    const ids = data.map((entry) => {
      const id =
        entry !== null && typeof entry === "object" ? (entry as Record<string, unknown>)["subscriptionId"] : "";
      if (typeof id !== "string" || id === "") {
        throw new RealtimeError(
          MESSAGE_FORMAT_INVALID,
          "Each unsubscribe payload must include a non-empty subscriptionId.",
        );
      }
      return id;
    });
    const results = ids.map((subscriptionId) => ({
      subscriptionId,
      removed: this.subscriptions.delete(subscriptionId),
    }));
    this.send({ type: "response", data: { to: "unsubscribe", success: true, subscriptions: results } });
  }

  /** Reload the user's roles after a membership change; a deleted user leaves the roles as they were. */
  private reloadRoles(): void {
    const user = this.user ? findUser(this.app.store, this.user.id) : undefined;
    if (!user) return;
    this.user = user;
    this.roles = rolesOf(this.app, user);
  }

  /**
   * Deliver `event` when this client holds one of its roles and has subscriptions on one of its
   * channels; the message lists those subscription IDs (AW `getSubscribers`).
   */
  deliver(event: RealtimeEvent): void {
    if (event.rolesChangedFor !== undefined && event.rolesChangedFor === this.user?.id) this.reloadRoles();
    if (!event.roles.some((role) => this.roles.includes(role))) return;
    const matched: string[] = [];
    for (const [id, subscription] of this.subscriptions) {
      if (subscription.channels.some((channel) => event.channels.includes(channel))) matched.push(id);
    }
    if (matched.length === 0) return;
    const { events, channels, timestamp, payload } = event;
    this.send({ type: "event", data: { events, channels, timestamp, payload, subscriptions: matched } });
  }
}
