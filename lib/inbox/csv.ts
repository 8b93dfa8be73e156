/**
 * The inbox as CSV (issue #31 item 2): RFC 4180 text (csv-stringify), UTF-8 with a byte order mark so Arabic
 * opens correctly in spreadsheets, one row per submission in the order given.
 */
import { stringify } from "csv-stringify/sync";
import type { InboxItem } from "./store.ts";

/** The columns, in order (header row). */
export const CSV_COLUMNS = ["kind", "received", "name", "email", "language", "state", "text"] as const;

/**
 * A cell as a spreadsheet will not run it: text starting with `=`, `+`, `-`, `@`, tab or carriage return is
 * prefixed with `'` (OWASP "CSV Injection"), since visitors write these cells.
 */
export function inertCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The CSV text of `items`, starting with U+FEFF (the BOM) and a header row; lines end with CRLF. */
export function inboxCsv(items: readonly InboxItem[]): string {
  const rows = items.map((item) =>
    [item.kind, item.createdAt, item.name, item.email, item.locale, item.state, item.text].map(inertCell),
  );
  return `\uFEFF${stringify([[...CSV_COLUMNS], ...rows], { record_delimiter: "windows" })}`;
}

/** A file name for an export made at `now`: `inbox-YYYY-MM-DD.csv`. */
export function csvFileName(now = new Date()): string {
  return `inbox-${now.toISOString().slice(0, 10)}.csv`;
}
