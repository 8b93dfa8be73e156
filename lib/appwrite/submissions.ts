/**
 * Visitors' submissions (spec §3, §7): community applications and contact messages, created with the
 * API-key client. The collections grant no permission to any role (docs/decisions/0001), so only the web
 * server can write them; each row carries `read`, `update` and `delete` for the studio team and nothing else
 * (`SUBMISSION_PERMISSIONS`; issue #31, SECURITY C65): its members work them in the inbox, nobody else sees
 * them.
 */
import { ID, Permission, Query } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import {
  DEFAULT_CONTENT_LOCALE,
  SUBMISSION_FORM_FIELDS,
  SUBMISSION_MODEL,
  isContentLocale,
} from "../../model/model.ts";
import { studioTeamRole } from "../../model/team.ts";
import type { AdminServices } from "./client.ts";

/** Every submission row's permissions: the studio team reads, updates and deletes it (Appwrite `team:studio`). */
export const SUBMISSION_PERMISSIONS: readonly string[] = [
  Permission.read(studioTeamRole()),
  Permission.update(studioTeamRole()),
  Permission.delete(studioTeamRole()),
];

/** A kind of visitor submission, as the content model names it. */
export type SubmissionKind = keyof typeof SUBMISSION_MODEL;

/** The outcome of a submission (spec §7: "A failure yields a success-false result"). */
export type SubmissionResult = { success: true; id: string; createdAt: string } | { success: false; error: Error };

/**
 * Stores a validated submission of `kind` in its collection: exactly the form's fields in the content model
 * (`SUBMISSION_FORM_FIELDS`), nothing else the caller's object holds, plus the inbox's `locale` (the page's
 * language: `en` or `ar`, anything else reads as the default) and `state: "new"`. Never throws: a refusal of
 * the backend is a `success: false` result carrying the error (the caller decides what the visitor sees).
 */
export async function createSubmission(
  services: AdminServices,
  kind: SubmissionKind,
  submission: Readonly<Record<string, unknown>>,
  locale: string = DEFAULT_CONTENT_LOCALE,
): Promise<SubmissionResult> {
  const spec = SUBMISSION_MODEL[kind];
  const data: Record<string, unknown> = Object.fromEntries(
    Object.keys(SUBMISSION_FORM_FIELDS[kind]).map((name) => [name, submission[name]]),
  );
  data["locale"] = isContentLocale(locale) ? locale : DEFAULT_CONTENT_LOCALE;
  data["state"] = "new";
  try {
    const document = await services.tablesDB.createRow({
      databaseId: DATABASE_ID,
      tableId: spec.collectionId,
      rowId: ID.unique(),
      data,
      permissions: [...SUBMISSION_PERMISSIONS],
    });
    return { success: true, id: document.$id, createdAt: document.$createdAt };
  } catch (error) {
    return { success: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/**
 * The inbox's migration of a submission table (issue #31; `studio setup`): every row from before the inbox
 * (no `state`) becomes `new`, English when it has no locale, and gets the team's permissions
 * (`SUBMISSION_PERMISSIONS`; such rows had none, so nobody but the key could read them).
 * @returns how many rows were updated.
 * @throws {AppwriteException} when Appwrite refuses a read or a write.
 */
export async function backfillSubmissions(services: AdminServices, tableId: string): Promise<number> {
  const { tablesDB } = services;
  let updated = 0;
  // Updated rows leave the `isNull` filter, so each page is read from the start.
  for (;;) {
    const { rows } = await tablesDB.listRows({
      databaseId: DATABASE_ID,
      tableId,
      queries: [Query.isNull("state"), Query.limit(100)],
      total: false,
    });
    if (rows.length === 0) return updated;
    for (const row of rows) {
      await tablesDB.updateRow({
        databaseId: DATABASE_ID,
        tableId,
        rowId: row.$id,
        data: { state: "new", locale: (row as Record<string, unknown>)["locale"] ?? DEFAULT_CONTENT_LOCALE },
        permissions: [...SUBMISSION_PERMISSIONS],
      });
      updated++;
    }
  }
}
