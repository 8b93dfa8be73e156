/**
 * What "the same" means on both sides of a transfer (issue #32 item 4): each kind of record reduced to the
 * fields that must survive the move, in a stable order, so a comparison is one string equality. Pure.
 * Timestamps compare as instants (`…Z` and `…+00:00` are the same time); permissions and labels as sets.
 */

/** An ISO 8601 date-time as Appwrite writes them (`2026-11-27T10:00:00.000+00:00`). */
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** `value` with date-time strings as UTC instants and object keys sorted (arrays keep their order). */
function normalise(value: unknown): unknown {
  if (typeof value === "string" && DATETIME.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? value : new Date(ms).toISOString();
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, normalise((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** A stable string of `value` (sorted keys, instants for date-times). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalise(value));
}

const sorted = (values: readonly string[] | undefined) => [...(values ?? [])].sort();

/** A row's columns (every key not starting with `$`). */
export function rowData(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith("$")));
}

/** A row as it must arrive: id, timestamps, permissions (as a set) and columns. */
export function canonicalRow(row: {
  $id: string;
  $createdAt: string;
  $updatedAt: string;
  $permissions: string[];
}): string {
  return canonicalJson({
    id: row.$id,
    createdAt: row.$createdAt,
    updatedAt: row.$updatedAt,
    permissions: sorted(row.$permissions),
    data: rowData(row),
  });
}

/** A stored file: id, name, bytes (size and Appwrite's MD5 `signature`), type and permissions. */
export function canonicalFile(file: {
  $id: string;
  name: string;
  sizeOriginal: number;
  signature: string;
  mimeType: string;
  $permissions: string[];
}): string {
  return canonicalJson({
    id: file.$id,
    name: file.name,
    size: file.sizeOriginal,
    signature: file.signature,
    mimeType: file.mimeType,
    permissions: sorted(file.$permissions),
  });
}

/** The parts of a user a transfer keeps (sessions are not moved: people sign in again). */
export interface UserRecordShape {
  $id: string;
  name: string;
  email: string;
  phone: string;
  password?: string;
  hash?: string;
  status: boolean;
  labels: string[];
  prefs: object;
  emailVerification: boolean;
}

/** A user: id, name, e-mail, phone, password hash and its algorithm, status, labels, prefs, verification. */
export function canonicalUser(user: UserRecordShape): string {
  return canonicalJson({
    id: user.$id,
    name: user.name,
    email: user.email,
    phone: user.phone,
    password: user.password ?? "",
    hash: user.password ? (user.hash ?? "") : "",
    status: user.status,
    labels: sorted(user.labels),
    prefs: user.prefs,
    emailVerification: user.emailVerification,
  });
}

/** A team member: which user, which roles (as a set). Membership ids are Appwrite's own and not kept. */
export function canonicalMembership(membership: { userId: string; roles: string[] }): string {
  return canonicalJson({ userId: membership.userId, roles: sorted(membership.roles) });
}
