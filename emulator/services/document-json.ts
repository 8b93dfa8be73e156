import { toJson } from "../http/respond.ts";
import { rename, ROW_KEYS } from "./tables-db-names.ts";

/**
 * The JSON text of document lists, each row's model serialised once per distinct row (issue #18 item 5).
 * After the SQL, serialising the page (`JSON.stringify` of 25 models, ~12 kB) was the largest cost of a
 * list request; a client repeating a list (the site does) gets rows it has serialised before.
 *
 * A row's text is a pure function of its column values: it is reused only when every value of the row
 * just read equals (`===`) the one it was made from, so an updated row is serialised again and no
 * text can be stale. The reply is byte for byte `toJson({ total, documents: rows.map(toModel) })`
 * (or TablesDB's `RowList`, as `translateReply` in `tables-db.ts` renames it).
 */

/** The names a list is answered in: `DocumentList`, or TablesDB's `RowList` (`tables-db-names.ts`). */
export type ListNames = "documents" | "rows";

/** Rows kept per memo before it is emptied (≈ 1 kB each for a typical post). */
const MAX_ROWS = 1000;

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The serialised models of one collection record, query selection and naming, by row `_seq`. */
export class RowJsonMemo {
  private readonly texts = new Map<unknown, { row: readonly unknown[]; text: string }>();

  /**
   * `model` builds a raw row's `Document` model (`toModel` of `document-list.ts`); with `names` "rows"
   * it is renamed to the `Row` model (`$collectionId` → `$tableId`) as TablesDB does.
   */
  constructor(
    private readonly model: (row: unknown[]) => Record<string, unknown>,
    private readonly names: ListNames,
  ) {}

  /** The model text of a raw row (`_seq` first): the kept text when the row's values are unchanged. */
  text(row: unknown[]): string {
    const kept = this.texts.get(row[0]);
    if (kept && sameValues(kept.row, row)) return kept.text;
    const model = this.model(row);
    const text = toJson(this.names === "rows" ? rename(model, ROW_KEYS) : model);
    if (this.texts.size >= MAX_ROWS) this.texts.clear();
    this.texts.set(row[0], { row, text });
    return text;
  }

  /** The list's text: `{"total":…,"documents":[…]}` (`"rows"` for TablesDB), as `toJson` writes the object. */
  list(total: number, rows: readonly unknown[][]): string {
    let text = `{"total":${toJson(total)},"${this.names}":[`;
    for (let i = 0; i < rows.length; i++) text += (i === 0 ? "" : ",") + this.text(rows[i] as unknown[]);
    return `${text}]}`;
  }
}
