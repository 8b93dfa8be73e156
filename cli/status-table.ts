/**
 * `studio status`'s human output (issue #34): one line per language version with its translation state, its
 * lifecycle and publish time; a table when it fits the terminal, else one block per item, so nothing is
 * wrapped by the terminal (40 columns included).
 */
import type { FailingRow, StatusRow } from "../lib/translate/content-status.ts";

/** `2027-01-01 09:00 UTC` from an ISO instant. */
export function shownTime(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "";
}

function lifecycleText(row: StatusRow): string {
  if (!row.lifecycle) return "";
  return row.publishAt ? `${row.lifecycle} ${shownTime(row.publishAt)}` : row.lifecycle;
}

/**
 * The status table for a terminal of `columns` columns (80 when unknown): columns item, locale, translation,
 * state (draft / scheduled / published with its time) when they fit; otherwise each item on its own line and
 * its versions indented beneath it.
 */
export function statusLines(rows: readonly StatusRow[], columns: number): string[] {
  const cells = rows.map((r) => ({
    item: `${r.kind} ${r.slug}`,
    locale: r.locale,
    translation: r.state,
    state: lifecycleText(r),
  }));
  const header = { item: "item", locale: "locale", translation: "translation", state: "state" };
  const width = (key: keyof typeof header) => Math.max(header[key].length, ...cells.map((c) => c[key].length));
  const widths = { item: width("item"), locale: width("locale"), translation: width("translation") };
  const total = widths.item + widths.locale + widths.translation + width("state") + 6;
  if (total <= columns) {
    const line = (c: typeof header, first: boolean) =>
      [
        first ? c.item.padEnd(widths.item) : "".padEnd(widths.item),
        c.locale.padEnd(widths.locale),
        c.translation.padEnd(widths.translation),
        c.state,
      ]
        .join("  ")
        .trimEnd();
    return [line(header, true), ...cells.map((c, i) => line(c, i === 0 || cells[i - 1]!.item !== c.item))];
  }
  // Narrow: the item alone (a long slug may still be longer than the terminal), then each version on short
  // lines: its translation state, then its lifecycle and time.
  const lines: string[] = [];
  cells.forEach((c, i) => {
    if (i === 0 || cells[i - 1]!.item !== c.item) lines.push(c.item);
    lines.push(`  ${c.locale}: ${c.translation}`);
    if (c.state) lines.push(`      ${c.state}`);
  });
  return lines;
}

/** The `--check` failures as lines: `post x (ar, posts/x.ar.md): stale: …`. */
export function failingLines(failing: readonly FailingRow[]): string[] {
  if (failing.length === 0) return [];
  return [
    `status --check: ${failing.length} version(s) fail:`,
    ...failing.map((f) => `  ${f.kind} ${f.slug} (${f.locale}, ${f.file}): ${f.state}: ${f.reason}`),
  ];
}
