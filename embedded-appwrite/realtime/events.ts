import type { CollectionRecord } from "../db/catalog.ts";
import type { BucketRecord } from "../db/files.ts";
import { nowDatetime } from "../datetime.ts";
import { rolesFor } from "../permissions.ts";
import type { EventBus, RealtimeEvent } from "./bus.ts";

/** What happened to a document or file. */
export type ChangeAction = "create" | "update" | "delete";

/**
 * Every event name Appwrite derives from an event pattern (AW `Event::generateEvents`): the pattern
 * with and without its action, then its parent patterns, each with every combination of its IDs
 * replaced by `*`. `segments` alternates type and ID: `["databases", "db", "collections", "col", …]`.
 */
export function eventNames(segments: readonly string[], action: string): string[] {
  const patterns: string[][] = [];
  patterns.push([...segments, action], [...segments]);
  for (let end = segments.length - 2; end >= 2; end -= 2) patterns.push(segments.slice(0, end));
  const names = new Set<string>();
  for (const pattern of patterns) {
    const idPositions = pattern.map((_s, i) => i).filter((i) => i % 2 === 1 && i < segments.length);
    const combinations = 1 << idPositions.length;
    // Mask 0 keeps every ID, the last mask stars them all, then the mixed ones (Appwrite's order).
    const order = [0, combinations - 1, ...Array.from({ length: combinations - 2 }, (_v, i) => i + 1)];
    for (const mask of combinations > 1 ? order : [0]) {
      const name = pattern.map((part, i) => {
        const bit = idPositions.indexOf(i);
        return bit >= 0 && mask & (1 << bit) ? "*" : part;
      });
      names.add(name.join("."));
    }
  }
  return [...names];
}

function readRoles(permissions: readonly string[]): string[] {
  return rolesFor(permissions, "read");
}

/**
 * The channels plus their `.<action>` forms, which the web SDK's `Channel` builder produces
 * (`Channel.database(d).collection(c).document().create()` → `databases.d.collections.c.documents.create`).
 */
function withActions(channels: readonly string[], action: ChangeAction): string[] {
  return [...channels, ...channels.map((channel) => `${channel}.${action}`)];
}

function permissionsOf(model: Record<string, unknown>): string[] {
  const value = model["$permissions"];
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === "string") : [];
}

/**
 * The realtime event of a document write (REFERENCE §4 "Realtime"; AW `Messaging/Adapter/Realtime.php`):
 * channels `documents`, `databases.<db>.collections.<col>.documents[.<id>]` and their TablesDB mirrors
 * `rows`, `databases.<db>.tables.<t>.rows[.<id>]`, `tablesdb.<db>.tables.<t>.rows[.<id>]` (each
 * specific one also with `.<action>`); events
 * `databases.<db>.collections.<col>.documents.<id>.<action>` with their wildcards, plus the
 * `tablesdb.<db>.tables.<t>.rows.<id>.<action>` family; readable by the collection's read roles and,
 * with `documentSecurity`, the document's own.
 */
export function documentEvent(
  collection: CollectionRecord,
  document: Record<string, unknown>,
  action: ChangeAction,
): RealtimeEvent {
  const db = collection.databaseId;
  const col = collection.id;
  const id = String(document["$id"]);
  const roles = new Set(readRoles(collection.permissions));
  if (collection.documentSecurity) for (const role of readRoles(permissionsOf(document))) roles.add(role);
  return {
    events: [
      ...eventNames(["databases", db, "collections", col, "documents", id], action),
      ...eventNames(["tablesdb", db, "tables", col, "rows", id], action),
    ],
    channels: [
      "documents",
      "rows",
      ...withActions(
        [
          `databases.${db}.collections.${col}.documents`,
          `databases.${db}.collections.${col}.documents.${id}`,
          `databases.${db}.tables.${col}.rows`,
          `databases.${db}.tables.${col}.rows.${id}`,
          `tablesdb.${db}.tables.${col}.rows`,
          `tablesdb.${db}.tables.${col}.rows.${id}`,
        ],
        action,
      ),
    ],
    roles: [...roles],
    payload: document,
    timestamp: nowDatetime(),
  };
}

/**
 * The realtime event of a file write (REFERENCE §4 "Realtime"): channels `files`,
 * `buckets.<b>.files`, `buckets.<b>.files.<id>` (the last two also with `.<action>`); events `buckets.<b>.files.<id>.<action>` with
 * their wildcards; readable by the bucket's read roles and, with `fileSecurity`, the file's own.
 */
export function fileEvent(bucket: BucketRecord, file: Record<string, unknown>, action: ChangeAction): RealtimeEvent {
  const id = String(file["$id"]);
  const roles = new Set(readRoles(bucket.permissions));
  if (bucket.fileSecurity) for (const role of readRoles(permissionsOf(file))) roles.add(role);
  return {
    events: eventNames(["buckets", bucket.id, "files", id], action),
    channels: ["files", ...withActions([`buckets.${bucket.id}.files`, `buckets.${bucket.id}.files.${id}`], action)],
    roles: [...roles],
    payload: file,
    timestamp: nowDatetime(),
  };
}

/**
 * Publish a document write on `bus` (after its transaction committed); `model` is the Document
 * the REST answer carries (for a delete, the document as it was). Free when no client listens.
 */
export function publishDocument(
  bus: EventBus,
  collection: CollectionRecord,
  model: Record<string, unknown>,
  action: ChangeAction,
): void {
  if (bus.active) bus.publish(documentEvent(collection, model, action));
}

/** Publish a file write on `bus`, as `publishDocument` does for documents. */
export function publishFile(
  bus: EventBus,
  bucket: BucketRecord,
  model: Record<string, unknown>,
  action: ChangeAction,
): void {
  if (bus.active) bus.publish(fileEvent(bucket, model, action));
}
