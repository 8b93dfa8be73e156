import { AppwriteError, isErrorType } from "../errors.ts";

/**
 * The names TablesDB gives to what the legacy Databases API calls otherwise (ARCHITECTURE decision 10):
 * keys of models (`$collectionId` → `$tableId`) and error types and wording (`document_*` → `row_*`, …).
 * Used by `tables-db.ts` (every `/tablesdb` route) and `transactions.ts` (`/tablesdb/transactions`).
 */

type Json = Record<string, unknown>;

/** The Row model's keys beside the Document model's. */
export const ROW_KEYS: Record<string, string> = { $collectionId: "$tableId" };

/** `object` with its keys renamed by `keys` (others kept, order kept). */
export function rename(object: Json, keys: Record<string, string>): Json {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [keys[k] ?? k, v]));
}

const ERROR_PREFIXES: [string, string][] = [
  ["collection_", "table_"],
  ["document_", "row_"],
  ["attribute_", "column_"],
  ["index_", "column_index_"],
];
/**
 * Parameter names in free-form messages (`Param "collectionId" is not optional.`). Other wording, e.g.
 * utopia's `Invalid document structure: …`, is the database library's and is kept as it is.
 */
const WORDS: Record<string, string> = {
  collectionId: "tableId",
  documentId: "rowId",
  documentSecurity: "rowSecurity",
};
const WORD_PATTERN = new RegExp(`\\b(${Object.keys(WORDS).join("|")})\\b`, "g");

/** A legacy error as TablesDB reports it: `collection_*` → `table_*` and so on, wording included. */
export function translateError(error: AppwriteError): AppwriteError {
  for (const [from, to] of ERROR_PREFIXES) {
    if (!error.type.startsWith(from)) continue;
    const type = to + error.type.slice(from.length);
    if (!isErrorType(type)) break;
    const template = new AppwriteError(error.type).message;
    const pattern = new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%s/g, "(.*)")}$`);
    const filled = pattern.exec(error.message);
    if (filled) return new AppwriteError(type, undefined, filled.slice(1));
    return new AppwriteError(
      type,
      error.message.replace(WORD_PATTERN, (w) => WORDS[w] ?? w),
    );
  }
  if (error.type.startsWith("general_")) {
    return new AppwriteError(
      error.type,
      error.message.replace(WORD_PATTERN, (w) => WORDS[w] ?? w),
    );
  }
  return error;
}
