import type { Store } from "./store.ts";
import { toUser } from "./users.ts";
import type { UserRecord, UserRow } from "./users.ts";

/** A messaging target (Appwrite `Target` model, REFERENCE §3), stored in its user's `targets` JSON. */
export interface Target {
  $id: string;
  $createdAt: string;
  $updatedAt: string;
  name: string;
  userId: string;
  providerId: string | null;
  providerType: string;
  identifier: string;
  expired: boolean;
}

/**
 * SQL for a table expression listing the targets of user `userSeq` with one column per queryable
 * field (`id`, `name`, `provider_id`, `provider_type`, `identifier`, `expired`, `created_at`,
 * `updated_at`, `seq`, `json`), for `runList`. `userSeq` comes from the database, never the request.
 */
export function userTargetsTable(userSeq: number): string {
  if (!Number.isSafeInteger(userSeq)) throw new Error("userTargetsTable: userSeq must be an integer");
  return `(SELECT json_extract(t.value, '$."$id"') AS id, json_extract(t.value, '$.name') AS name,
    json_extract(t.value, '$.providerId') AS provider_id, json_extract(t.value, '$.providerType') AS provider_type,
    json_extract(t.value, '$.identifier') AS identifier, json_extract(t.value, '$.expired') AS expired,
    json_extract(t.value, '$."$createdAt"') AS created_at, json_extract(t.value, '$."$updatedAt"') AS updated_at,
    t.key AS seq, t.value AS json FROM users u, json_each(u.targets) t WHERE u.seq = ${userSeq})`;
}

/** The target with ID `id` of any user, with its user, or `undefined` (target IDs are project-wide). */
export function findTarget(store: Store, id: string): { user: UserRecord; target: Target } | undefined {
  const row = store
    .stmt(
      `SELECT u.*, t.value AS target_json FROM users u, json_each(u.targets) t WHERE json_extract(t.value, '$."$id"') = ?`,
    )
    .get(id) as (UserRow & { target_json: string }) | undefined;
  if (!row) return undefined;
  return { user: toUser(row), target: JSON.parse(row.target_json) as Target };
}

/** True when some user already has a target with this `identifier` (Appwrite keeps identifiers unique). */
export function identifierTaken(store: Store, identifier: string, exceptId?: string): boolean {
  return (
    store
      .stmt(
        `SELECT 1 FROM users u, json_each(u.targets) t WHERE json_extract(t.value, '$.identifier') = ? AND json_extract(t.value, '$."$id"') IS NOT ?`,
      )
      .get(identifier, exceptId ?? null) !== undefined
  );
}

/** The targets with these IDs (any user), in no particular order; unknown IDs are skipped. */
export function targetsByIds(store: Store, ids: readonly string[]): Target[] {
  return ids.flatMap((id) => {
    const found = findTarget(store, id);
    return found ? [found.target] : [];
  });
}
