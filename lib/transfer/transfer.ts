/**
 * `studio transfer` (issue #32 item 4): moves a whole site from one Appwrite project to another (the embedded
 * default to Appwrite Cloud or a self-hosted Appwrite, or back), keeping ids: the schema (`model/appwrite.json`,
 * applied as `studio setup` does), the users with their password hashes, the teams and their members (the
 * studio team), the images, and every row of the product's tables (content in both languages, history,
 * submissions). Phases run in that order; each writes only what is missing or different on the target, so a
 * second run writes nothing and an interrupted run resumes where it stopped. The source is only read.
 * Not moved: sessions (people sign in again), pending team invitations (reported), Messaging providers and
 * their secrets (the operator adds the SMTP provider on the target), and `limit_events` (rate-limit
 * counters of the source's visitors).
 */
import type { AppwriteSchema } from "../appwrite/setup.ts";
import { applyContentSchema } from "../appwrite/content-schema.ts";
import { AbortError, EXIT } from "../errors.ts";
import type { PhaseCounts, TransferEvents } from "./events.ts";
import { transferFiles } from "./files.ts";
import { transferRows } from "./rows.ts";
import type { TransferSide } from "./side.ts";
import { transferTeams } from "./teams.ts";
import { transferUsers } from "./users.ts";
import { verifyTransfer, type TransferDifference, type TransferScope } from "./verify.ts";

/** Tables a transfer leaves behind: rate-limit counters belong to the source's visitors and time windows. */
export const UNTRANSFERRED_TABLES: ReadonlySet<string> = new Set(["limit_events"]);

export interface TransferOptions {
  /** Count what would be written and write nothing (the schema is not applied either). */
  dryRun?: boolean;
  /** Skip the copy and only compare both sides. */
  verifyOnly?: boolean;
  events?: TransferEvents;
}

export interface TransferReport {
  /** One entry per phase and scope, in the order they ran. */
  phases: PhaseCounts[];
  /** Changes the schema step made on the target (as `studio setup` prints them); empty on a dry run. */
  schemaChanges: string[];
  /** Differences the verify step found (empty: both sides hold the same); absent on a dry run. */
  differences?: TransferDifference[];
}

/** The tables and buckets of `schema` a transfer moves. */
export function transferScope(schema: AppwriteSchema): TransferScope {
  return {
    tables: schema.collections
      .filter((c) => !UNTRANSFERRED_TABLES.has(c.$id))
      .map((c) => ({ databaseId: c.databaseId, tableId: c.$id })),
    buckets: schema.buckets.map((b) => b.$id),
  };
}

/**
 * Refuses a source whose tables lack columns of `schema` (an older installation): its rows would not fit the
 * target's schema. The source is never changed: the operator runs `studio setup` against it.
 * @throws {AbortError} exit 3 naming the table and columns.
 */
async function checkSourceSchema(source: TransferSide, schema: AppwriteSchema): Promise<void> {
  for (const { databaseId, tableId } of transferScope(schema).tables) {
    const expected = schema.collections.find((c) => c.$id === tableId)?.attributes.map((a) => a.key) ?? [];
    const { columns } = await source.services.tablesDB.listColumns({ databaseId, tableId }).catch((error: unknown) => {
      throw new AbortError(
        `The source has no table ${tableId} (${error instanceof Error ? error.message : String(error)}).`,
        {
          exitCode: EXIT.backend,
          nextSteps: "Run studio setup against the source first (it only adds what is missing), then transfer again.",
          cause: error,
        },
      );
    });
    const have = new Set(columns.map((c) => (c as { key: string }).key));
    const missing = expected.filter((key) => !have.has(key));
    if (missing.length > 0) {
      throw new AbortError(
        `The source's table ${tableId} lacks column(s) ${missing.join(", ")}: its schema is older than this studio's.`,
        {
          exitCode: EXIT.backend,
          nextSteps: "Run studio setup against the source first (it only adds what is missing), then transfer again.",
        },
      );
    }
  }
}

/**
 * Moves the site from `source` to `target` (see the module comment), then verifies both sides.
 * @returns per-phase counts, the schema changes and the differences left (none when the move is complete).
 * @throws {AbortError} (exit 3) for a source schema older than `schema` or a password hash that cannot be
 *   imported; {SchemaSetupError} when the target's schema cannot be applied; {AppwriteException} when a side
 *   refuses (a target key without a needed scope: 401 `general_unauthorized_scope`).
 */
export async function transferSite(
  source: TransferSide,
  target: TransferSide,
  schema: AppwriteSchema,
  options: TransferOptions = {},
): Promise<TransferReport> {
  const events = options.events ?? {};
  const scope = transferScope(schema);
  const report: TransferReport = { phases: [], schemaChanges: [] };
  if (!options.verifyOnly) {
    await checkSourceSchema(source, schema);
    const phase = { dryRun: options.dryRun ?? false, events };
    if (!phase.dryRun) {
      report.schemaChanges = await applyContentSchema(target.services, schema);
      events.onPhase?.({ phase: "schema", create: report.schemaChanges.length, update: 0, unchanged: 0 });
    }
    report.phases.push(await transferUsers(source, target, phase));
    report.phases.push(...(await transferTeams(source, target, phase)));
    for (const bucketId of scope.buckets) report.phases.push(await transferFiles(source, target, bucketId, phase));
    for (const { databaseId, tableId } of scope.tables) {
      report.phases.push(await transferRows(source, target, databaseId, tableId, phase));
    }
    if (phase.dryRun) return report;
  }
  report.differences = await verifyTransfer(source, target, scope);
  return report;
}
