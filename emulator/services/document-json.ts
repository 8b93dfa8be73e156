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

const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]}");

/** The serialised models of one collection record, query selection and naming, by row `_seq`. */
export class RowJsonMemo {
  private readonly texts = new Map<unknown, { row: readonly unknown[]; bytes: Buffer }>();

  /**
   * `model` builds a raw row's `Document` model (`toModel` of `document-list.ts`); with `names` "rows"
   * it is renamed to the `Row` model (`$collectionId` → `$tableId`) as TablesDB does.
   */
  constructor(
    private readonly model: (row: unknown[]) => Record<string, unknown>,
    private readonly names: ListNames,
  ) {}

  /** The UTF-8 model text of a raw row (`_seq` first): the kept bytes when the row's values are unchanged. */
  bytes(row: unknown[]): Buffer {
    const kept = this.texts.get(row[0]);
    if (kept && sameValues(kept.row, row)) return kept.bytes;
    const model = this.model(row);
    const bytes = Buffer.from(toJson(this.names === "rows" ? rename(model, ROW_KEYS) : model));
    if (this.texts.size >= MAX_ROWS) this.texts.clear();
    this.texts.set(row[0], { row, bytes });
    return bytes;
  }

  /**
   * The list's UTF-8 JSON: `{"total":…,"documents":[…]}` (`"rows"` for TablesDB), byte for byte what
   * `toJson` writes for the list object. Bytes, not a string: the reply's length and the socket write
   * need no UTF-8 pass over it.
   */
  list(total: number, rows: readonly unknown[][]): Buffer {
    const parts: Buffer[] = [Buffer.from(`{"total":${toJson(total)},"${this.names}":[`)];
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) parts.push(COMMA);
      parts.push(this.bytes(rows[i] as unknown[]));
    }
    parts.push(CLOSE);
    return Buffer.concat(parts);
  }
}
