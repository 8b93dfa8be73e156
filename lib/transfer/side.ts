/**
 * One side of a transfer (issue #32 item 4): an Appwrite project reached with a server API key, and the reads
 * both sides share (every page of a list, the rows of a set of ids). Reads only; writes live in the phases.
 */
import { Query, Teams } from "node-appwrite";
import { createAdminServices, isNotFound, type AdminServices, type AppwriteTarget } from "../appwrite/client.ts";
import { listPages, PAGE_SIZE } from "../appwrite/paginate.ts";

/** A project, its services (TablesDB, Storage, Users, Teams) and a name for messages ("source", "target"). */
export interface TransferSide {
  label: string;
  services: AdminServices;
  teams: Teams;
}

/** Builds the side for `target` (an endpoint, project id and server API key). */
export function transferSide(label: string, target: AppwriteTarget): TransferSide {
  const services = createAdminServices(target);
  return { label, services, teams: new Teams(services.client) };
}

/** Whether the table exists on `side` (a target without the schema yet has none). */
export async function hasTable(side: TransferSide, databaseId: string, tableId: string): Promise<boolean> {
  try {
    await side.services.tablesDB.getTable({ databaseId, tableId });
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** A row as every list returns it: its system fields and its columns. */
export type AnyRow = { $id: string; $createdAt: string; $updatedAt: string; $permissions: string[] } & Record<
  string,
  unknown
>;

/** The pages of a table's rows, in Appwrite's order (cursor pagination, PAGE_SIZE per page). */
export function rowPages(side: TransferSide, databaseId: string, tableId: string): AsyncGenerator<AnyRow[]> {
  return listPages((queries) =>
    side.services.tablesDB.listRows({ databaseId, tableId, queries }).then((page) => page.rows as unknown as AnyRow[]),
  );
}

/** How many rows the table holds (Appwrite's `total`). */
export async function rowCount(side: TransferSide, databaseId: string, tableId: string): Promise<number> {
  const page = await side.services.tablesDB.listRows({ databaseId, tableId, queries: [Query.limit(1)] });
  return page.total;
}

/**
 * The rows of `ids` (at most PAGE_SIZE, Appwrite's limit of values per query) that exist on `side`, by id;
 * an empty map when the table does not exist there yet.
 */
export async function rowsById(
  side: TransferSide,
  databaseId: string,
  tableId: string,
  ids: readonly string[],
  tableExists: boolean,
): Promise<Map<string, AnyRow>> {
  if (!tableExists || ids.length === 0) return new Map();
  const page = await side.services.tablesDB.listRows({
    databaseId,
    tableId,
    queries: [Query.equal("$id", [...ids]), Query.limit(Math.min(ids.length, PAGE_SIZE))],
  });
  return new Map((page.rows as unknown as AnyRow[]).map((row) => [row.$id, row]));
}
