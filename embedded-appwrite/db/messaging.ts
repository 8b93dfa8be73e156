import type { Store } from "./store.ts";

/** A stored messaging provider (Appwrite `Provider` model). */
export interface ProviderRecord {
  seq: number;
  id: string;
  name: string;
  provider: string;
  type: string;
  enabled: boolean;
  credentials: Record<string, unknown>;
  options: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** Message statuses (AW `Appwrite\Messaging\Status`; OpenAPI `message.status` enum). */
export type MessageStatus = "draft" | "scheduled" | "processing" | "sent" | "failed";

/** A stored message (Appwrite `Message` model). */
export interface MessageRecord {
  seq: number;
  id: string;
  providerType: string;
  topics: string[];
  users: string[];
  targets: string[];
  data: Record<string, unknown>;
  status: MessageStatus;
  scheduledAt: string | null;
  deliveredAt: string | null;
  deliveryErrors: string[] | null;
  deliveredTotal: number;
  createdAt: string;
  updatedAt: string;
}

/** Map a `providers` row to a record. */
export function toProvider(row: Record<string, unknown>): ProviderRecord {
  return {
    seq: row["seq"] as number,
    id: row["id"] as string,
    name: row["name"] as string,
    provider: row["provider"] as string,
    type: row["type"] as string,
    enabled: row["enabled"] === 1,
    credentials: JSON.parse(row["credentials"] as string) as Record<string, unknown>,
    options: JSON.parse(row["options"] as string) as Record<string, unknown>,
    createdAt: row["created_at"] as string,
    updatedAt: row["updated_at"] as string,
  };
}

/** The provider with ID `id`, or `undefined`. */
export function findProvider(store: Store, id: string): ProviderRecord | undefined {
  const row = store.stmt("SELECT * FROM providers WHERE id = ?").get(id) as Record<string, unknown> | undefined;
  return row ? toProvider(row) : undefined;
}

/** The first (oldest) enabled provider of `type`, Appwrite's default provider (AW Messaging worker `findOne`). */
export function defaultProvider(store: Store, type: string): ProviderRecord | undefined {
  const row = store.stmt("SELECT * FROM providers WHERE enabled = 1 AND type = ? ORDER BY seq LIMIT 1").get(type) as
    Record<string, unknown> | undefined;
  return row ? toProvider(row) : undefined;
}

/** Insert (`seq` ignored) or replace by ID a provider. */
export function saveProvider(store: Store, p: Omit<ProviderRecord, "seq">): void {
  store
    .stmt(
      `INSERT INTO providers (id, name, provider, type, enabled, credentials, options, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET name = excluded.name, provider = excluded.provider, type = excluded.type,
         enabled = excluded.enabled, credentials = excluded.credentials, options = excluded.options,
         updated_at = excluded.updated_at`,
    )
    .run(
      p.id,
      p.name,
      p.provider,
      p.type,
      p.enabled ? 1 : 0,
      JSON.stringify(p.credentials),
      JSON.stringify(p.options),
      p.createdAt,
      p.updatedAt,
    );
}

/** Appwrite `Provider` model (OpenAPI `provider`). */
export function providerModel(p: ProviderRecord): Record<string, unknown> {
  return {
    $id: p.id,
    $createdAt: p.createdAt,
    $updatedAt: p.updatedAt,
    name: p.name,
    provider: p.provider,
    enabled: p.enabled,
    type: p.type,
    credentials: p.credentials,
    options: p.options,
  };
}

/** Map a `messages` row to a record. */
export function toMessage(row: Record<string, unknown>): MessageRecord {
  const errors = row["delivery_errors"] as string | null;
  return {
    seq: row["seq"] as number,
    id: row["id"] as string,
    providerType: row["provider_type"] as string,
    topics: JSON.parse(row["topics"] as string) as string[],
    users: JSON.parse(row["users"] as string) as string[],
    targets: JSON.parse(row["targets"] as string) as string[],
    data: JSON.parse(row["data"] as string) as Record<string, unknown>,
    status: row["status"] as MessageStatus,
    scheduledAt: (row["scheduled_at"] as string | null) ?? null,
    deliveredAt: (row["delivered_at"] as string | null) ?? null,
    deliveryErrors: errors === null ? null : (JSON.parse(errors) as string[]),
    deliveredTotal: row["delivered_total"] as number,
    createdAt: row["created_at"] as string,
    updatedAt: row["updated_at"] as string,
  };
}

/** The message with ID `id`, or `undefined`. */
export function findMessage(store: Store, id: string): MessageRecord | undefined {
  const row = store.stmt("SELECT * FROM messages WHERE id = ?").get(id) as Record<string, unknown> | undefined;
  return row ? toMessage(row) : undefined;
}

/** Insert (`seq` ignored) or replace by ID a message. */
export function saveMessage(store: Store, m: Omit<MessageRecord, "seq">): void {
  store
    .stmt(
      `INSERT INTO messages (id, provider_type, topics, users, targets, data, status, scheduled_at, delivered_at,
         delivery_errors, delivered_total, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET topics = excluded.topics, users = excluded.users, targets = excluded.targets,
         data = excluded.data, status = excluded.status, scheduled_at = excluded.scheduled_at,
         delivered_at = excluded.delivered_at, delivery_errors = excluded.delivery_errors,
         delivered_total = excluded.delivered_total, updated_at = excluded.updated_at`,
    )
    .run(
      m.id,
      m.providerType,
      JSON.stringify(m.topics),
      JSON.stringify(m.users),
      JSON.stringify(m.targets),
      JSON.stringify(m.data),
      m.status,
      m.scheduledAt,
      m.deliveredAt,
      m.deliveryErrors === null ? null : JSON.stringify(m.deliveryErrors),
      m.deliveredTotal,
      m.createdAt,
      m.updatedAt,
    );
}

/** Appwrite `Message` model (OpenAPI `message`). */
export function messageModel(m: MessageRecord): Record<string, unknown> {
  return {
    $id: m.id,
    $createdAt: m.createdAt,
    $updatedAt: m.updatedAt,
    providerType: m.providerType,
    topics: m.topics,
    users: m.users,
    targets: m.targets,
    scheduledAt: m.scheduledAt,
    deliveredAt: m.deliveredAt,
    deliveryErrors: m.deliveryErrors,
    deliveredTotal: m.deliveredTotal,
    data: m.data,
    status: m.status,
  };
}
