/**
 * The admin's row writes with the studio team's permissions (issue #28 item 1, decision 0017). Appwrite lets a
 * session grant only the roles its user holds (Appwrite docs "Permissions"; `Documents/Create.php`), so a
 * user outside the team cannot write `update("team:studio")` on their new item, and an editor cannot write
 * `read("user:<creator>")` when a state change rewrites another user's draft's reads. The session makes the
 * write (Appwrite decides whether the user may create or change the row); the roles it may not grant are then
 * set with the API key, on that row only. A create whose permissions cannot be completed is removed again.
 */
import type { Models, TablesDB } from "node-appwrite";

type Row = Models.DefaultRow;
import type { DocumentWriter } from "../../lib/publish/writer.ts";

/** Whether `held` (the user's roles, `heldRoles`) covers the role of every permission in `permissions`. */
function grantable(permissions: readonly string[], held: readonly string[]): boolean {
  return permissions.every((p) => held.includes(/\("([^"]+)"\)$/.exec(p)?.[1] ?? ""));
}

/**
 * A `DocumentWriter` that writes with `session` (the user's `tablesDB`) and completes permissions the user
 * may not grant with `key` (the API key's `tablesDB`).
 * @param held the roles the user holds (`heldRoles` of `lib/publish/item-permissions.ts`).
 */
export function teamWriter(
  session: DocumentWriter,
  key: Pick<TablesDB, "updateRow" | "deleteRow">,
  held: readonly string[],
): DocumentWriter {
  // The SDK's overloads (positional or object) are narrowed to the object form the writer uses.
  const own = session as unknown as Record<
    "createRow" | "updateRow" | "getRow" | "deleteRow",
    (a: RowArgs) => Promise<Row>
  >;
  return {
    client: session.client,
    getRow: (args: RowArgs) => own.getRow(args),
    deleteRow: (args: RowArgs) => own.deleteRow(args),
    async createRow(args: RowArgs) {
      const { permissions } = args;
      if (!permissions || grantable(permissions, held)) return own.createRow(args);
      const created = await own.createRow({ ...args, permissions: permissions.filter((p) => grantable([p], held)) });
      const ids = { databaseId: created.$databaseId, tableId: created.$tableId, rowId: created.$id };
      try {
        return (await key.updateRow({ ...ids, permissions })) as Row;
      } catch (error) {
        // Nothing half-made: the row without the team's permissions goes again.
        await key.deleteRow(ids).catch(() => {});
        throw error;
      }
    },
    async updateRow(args: RowArgs) {
      const { permissions, ...rest } = args;
      if (!permissions || grantable(permissions, held)) return own.updateRow(args);
      // The session's write is Appwrite's check that this user may change the row; then its permissions.
      const saved = await own.updateRow(rest);
      const ids = { databaseId: saved.$databaseId, tableId: saved.$tableId, rowId: saved.$id };
      return (await key.updateRow({ ...ids, permissions })) as Row;
    },
  } as unknown as DocumentWriter;
}

/** The object form of the row calls. */
interface RowArgs {
  databaseId: string;
  tableId: string;
  rowId: string;
  data?: Record<string, unknown>;
  permissions?: string[];
}
