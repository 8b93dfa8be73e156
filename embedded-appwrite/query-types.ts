/** The shapes shared by the query compiler (`queries.ts`) and its filters (`query-filters.ts`). */

/** How one queryable attribute is stored: its SQL column (already quoted) and value type. */
export interface FieldSpec {
  column: string;
  type: "string" | "integer" | "double" | "boolean" | "datetime";
  array?: boolean;
  /** The FTS5 table of a fulltext index on this attribute, and the column its rowid matches. */
  fulltext?: { table: string; rowid: string };
}

/** The attributes a list endpoint may filter and order on (REFERENCE §2 "Filterable attributes"). */
export interface QuerySchema {
  fields: ReadonlyMap<string, FieldSpec>;
  /** Whether `select` is allowed (documents only). */
  selectable: boolean;
}

/** A parsed query object (REFERENCE §2 "Wire format"). */
export interface RawQuery {
  method: string;
  attribute: string;
  values: unknown[];
}
