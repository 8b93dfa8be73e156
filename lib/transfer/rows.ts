/**
 * The rows phase of a transfer (issue #32 item 4): every row of every transferred table, with its id,
 * permissions and timestamps, written to the target in bulk (`upsertRows`, Appwrite 1.8 TablesDB) page by page.
 * Only missing or different rows are written, so a second run writes nothing and an interrupted run resumes.
 */
import { canonicalRow, rowData } from "./canonical.ts";
import { countsFor, type PhaseCounts, type PhaseOptions } from "./events.ts";
import { hasTable, rowCount, rowPages, rowsById, type AnyRow, type TransferSide } from "./side.ts";

/** The row as the target's bulk upsert takes it: `$id`, `$permissions`, the two timestamps and the columns. */
function writable(row: AnyRow): Record<string, unknown> {
  return {
    $id: row.$id,
    $permissions: row.$permissions,
    $createdAt: row.$createdAt,
    $updatedAt: row.$updatedAt,
    ...rowData(row),
  };
}

/**
 * Copies table `tableId` of `databaseId` from `source` to `target`.
 * @returns what was (or, with `dryRun`, would be) created, updated and left as it was.
 * @throws {AppwriteException} when either side refuses a read or the target a write (a missing scope: 401).
 */
export async function transferRows(
  source: TransferSide,
  target: TransferSide,
  databaseId: string,
  tableId: string,
  options: PhaseOptions,
): Promise<PhaseCounts> {
  const counts = countsFor("rows", tableId);
  const total = await rowCount(source, databaseId, tableId);
  const targetHasTable = await hasTable(target, databaseId, tableId);
  let done = 0;
  for await (const page of rowPages(source, databaseId, tableId)) {
    const existing = await rowsById(
      target,
      databaseId,
      tableId,
      page.map((row) => row.$id),
      targetHasTable,
    );
    const changed: AnyRow[] = [];
    for (const row of page) {
      const there = existing.get(row.$id);
      if (!there) counts.create++;
      else if (canonicalRow(there) !== canonicalRow(row)) counts.update++;
      else {
        counts.unchanged++;
        continue;
      }
      changed.push(row);
    }
    if (!options.dryRun && changed.length > 0) {
      await target.services.tablesDB.upsertRows({ databaseId, tableId, rows: changed.map(writable) });
    }
    done += page.length;
    options.events.onProgress?.({ phase: "rows", scope: tableId, done, total: Math.max(total, done) });
  }
  options.events.onPhase?.(counts);
  return counts;
}
