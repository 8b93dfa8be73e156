/**
 * Visitors' submissions (spec §3, §7): community applications and contact messages, created with the
 * API-key client. The collections grant no permission to any role (docs/decisions/0001), so only the web
 * server can write them, and the documents get no permissions of their own.
 */
import { ID } from "node-appwrite";
import { DATABASE_ID } from "../../model/content.ts";
import { SUBMISSION_MODEL, fieldsOf } from "../../model/model.ts";
import type { AdminServices } from "./client.ts";

/** A kind of visitor submission, as the content model names it. */
export type SubmissionKind = keyof typeof SUBMISSION_MODEL;

/** The outcome of a submission (spec §7: "A failure yields a success-false result"). */
export type SubmissionResult = { success: true; id: string } | { success: false; error: Error };

/**
 * Stores a validated submission of `kind` in its collection: exactly the kind's fields in the content model
 * (`SUBMISSION_MODEL`), nothing else the caller's object holds. Never throws: a refusal of the backend is a
 * `success: false` result carrying the error (the caller decides what the visitor sees).
 */
export async function createSubmission(
  services: AdminServices,
  kind: SubmissionKind,
  submission: Readonly<Record<string, unknown>>,
): Promise<SubmissionResult> {
  const spec = SUBMISSION_MODEL[kind];
  const data = Object.fromEntries(fieldsOf(spec).map(([name]) => [name, submission[name]]));
  try {
    const document = await services.tablesDB.createRow({
      databaseId: DATABASE_ID,
      tableId: spec.collectionId,
      rowId: ID.unique(),
      data,
      permissions: [],
    });
    return { success: true, id: document.$id };
  } catch (error) {
    return { success: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
}
