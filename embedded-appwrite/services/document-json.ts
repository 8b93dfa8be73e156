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

/** Rows kept per memo before it is emptied. */
const MAX_ROWS = 1000;
/**
 * Bytes kept per memo before it is emptied: each row's text plus, about as large, the column values it is
 * checked against (so 25 posts of 100 kB fit, and a memo never holds more than ~8 MiB).
 */
const MAX_BYTES = 4 * 1024 * 1024;

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
  /** Whole list replies by query key, each with the database's change mark when it was read (`Store.changeMark`). */
  private readonly replies = new Map<string, { mark: string; bytes: Buffer }>();
  /** Text bytes held in `texts` and `replies`. */
  private held = 0;

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
    const replaced = kept?.bytes.length ?? 0;
    if (this.texts.size >= MAX_ROWS || this.held - replaced + bytes.length > MAX_BYTES) {
      this.clear();
    } else {
      this.texts.delete(row[0]);
      this.held -= replaced;
    }
    if (bytes.length <= MAX_BYTES) {
      this.texts.set(row[0], { row, bytes });
      this.held += bytes.length;
    }
    return bytes;
  }

  private clear(): void {
    this.texts.clear();
    this.replies.clear();
    this.held = 0;
  }

  /**
   * The list reply kept under `key` (the query list and `total` flag) if the database is unchanged since it was
   * read (`mark`, from `Store.changeMark` in the same read transaction), else `undefined`. A repeated list with
   * no write in between (the site repeats its lists) then runs no SQL (issue #33 item 4).
   */
  keptList(key: string, mark: string): Buffer | undefined {
    const kept = this.replies.get(key);
    return kept && kept.mark === mark ? kept.bytes : undefined;
  }

  /** Keep `bytes`, read at `mark`, as the reply for `key` (see `keptList`); bounded with the row texts. */
  keepList(key: string, mark: string, bytes: Buffer): void {
    const replaced = this.replies.get(key)?.bytes.length ?? 0;
    if (bytes.length > MAX_BYTES / 4) return;
    if (this.replies.size >= MAX_ROWS || this.held - replaced + bytes.length > MAX_BYTES) this.clear();
    else this.held -= replaced;
    this.replies.set(key, { mark, bytes });
    this.held += bytes.length;
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
