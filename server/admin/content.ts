/**
 * The admin's writes of ventures and blog posts (spec §2 admin forms, §3, §4, §6, §7; issue #5). Every write
 * is made with the signed-in user's session client, so Appwrite enforces the permissions: new documents are
 * readable by anyone and updatable/deletable by their creator and the studio team (SECURITY C37–C39;
 * decision 0017); the team's roles a user outside it may not grant are completed with the key (`team-writer.ts`). Only the fields of the
 * spec are written (C40: `$permissions`, `$id` or owner ids in a form are never read).
 *
 * Images are the exception: uploaded with the API key after the user's quota was checked (`./images.ts`;
 * SECURITY C36, C61).
 */
import { AppwriteException, Permission, Role, type Models } from "node-appwrite";
import {
  CONTENT_KINDS,
  DATABASE_ID,
  formSchema,
  IMAGES_BUCKET_ID,
  type ContentKind,
  type FormInputOf,
} from "../../model/content.ts";
import {
  createAdminServices,
  parseFileViewUrl,
  type AppwriteTarget,
  type SessionServices,
} from "../../lib/appwrite/client.ts";
import { normalizeBodyAsync } from "../../lib/html/body.ts";
import type { CheckedImage } from "../../lib/images/upload.ts";
import type { SignedInUser } from "../auth/account.ts";
import { adminImage, deleteImage } from "./images.ts";
import { withLibrarySizes } from "./media-library.ts";
import { assertWithinQuota, type UploadQuota } from "./quota.ts";
import { createItemDocument, deleteItemDocument, updateItemDocument } from "../../lib/publish/writer.ts";
import { creatorPermissions, heldRoles, mayAct } from "../../lib/publish/item-permissions.ts";
import { studioRoleOf } from "../../lib/appwrite/studio-team.ts";
import { teamWriter } from "./team-writer.ts";
import { PUBLISH_AT_COLUMN, stateFor, stateOf, UPDATED_BY_COLUMN, type ItemState } from "../../model/lifecycle.ts";

/**
 * The venture form's fields (spec §5: name, slug, website URL, short description, case study required), from
 * the content model (`formSchema`). The website URL follows the one `httpUrl` rule (SECURITY C58).
 */
export const ventureInputSchema = formSchema("venture");
export type VentureInput = FormInputOf<"venture">;

/** The blog form's fields: every input of `CONTENT_MODEL.post` (spec §5, all required). */
export const postInputSchema = formSchema("post");
export type PostInput = FormInputOf<"post">;

/** The spec's text for a refused write (§8 "Submission"). */
export const AUTHORIZATION_ERROR =
  "Authorization Error: You do not have permission to create/update this item. Please check the collection permissions...";
export const SUBMISSION_ERROR = "An error occurred during submission. Please try again.";

/**
 * The message a failed submission shows (spec §8): the authorization text when Appwrite's message contains
 * "authorized", else the error's message, else the generic text.
 */
export function submissionErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  if (message.includes("authorized")) return AUTHORIZATION_ERROR;
  if (
    error instanceof AppwriteException &&
    error.code === 409 &&
    // TablesDB's type (`row_…`) and the Databases API's, for an Appwrite that answers with the legacy one.
    (error.type === "row_unique_constraint_violation" || error.type === "document_unique_constraint_violation")
  ) {
    return "Another item already uses this slug; choose a different one.";
  }
  return message || SUBMISSION_ERROR;
}

/**
 * Permissions of a new document (spec §3: read by anyone; update and delete by the creator; decision 0017: and
 * by the studio team). The writer replaces the read permission by the state's (`statePermissions`: a draft
 * is read by its editors only).
 */
export function ownerPermissions(userId: string): string[] {
  return [Permission.read(Role.any()), ...creatorPermissions(userId)];
}

/**
 * The roles `user` holds (`heldRoles`: their own and, for a member of the studio team, the team's), looked up
 * with the API key of `target`.
 * @throws {AppwriteException} when Appwrite fails.
 */
export async function userRoles(target: AppwriteTarget, user: SignedInUser): Promise<string[]> {
  return heldRoles(user.id, await studioRoleOf(createAdminServices(target), user.id));
}

/** The writer of `user`'s saves: their session, completed by the key for the team's roles (`teamWriter`). */
function writerFor(target: AppwriteTarget, session: SessionServices, held: readonly string[]) {
  return teamWriter(session.tablesDB, createAdminServices(target).tablesDB, held);
}

const notAuthorized = () =>
  new AppwriteException(
    "The current user is not authorized to perform the requested action.",
    401,
    "user_unauthorized",
  );

type Input<K extends ContentKind> = FormInputOf<K>;

/**
 * The document fields of a form's input, body bounded and sanitized (SECURITY C16, C53), its library images
 * sized (`withLibrarySizes`); the writer puts dates in Appwrite's format.
 * @throws {HtmlBoundsError} when the body breaks a bound of `HTML_BOUNDS` (lib/html/bounds.ts).
 */
async function documentData<K extends ContentKind>(
  kind: K,
  input: Input<K>,
  target: AppwriteTarget,
): Promise<Record<string, string>> {
  const body = CONTENT_KINDS[kind].bodyField;
  const fields = input as Record<string, string>;
  const clean = await normalizeBodyAsync(fields[body]!);
  // Inline library images get their stored size (issue #30 item 3: no layout shift on the page).
  return { ...fields, [body]: await withLibrarySizes(createAdminServices(target), clean) };
}

/**
 * What a save does to the item's state (issue #29 item 1, explicit publishing as Ghost does it): `save`
 * ("Save" on a draft, "Update" on a published or scheduled item) never changes the state; `publish`
 * ("Publish…", "Schedule…") publishes it now, or schedules it when its `publishAt` is in the future;
 * `unpublish` ("Unpublish…", "Back to draft") makes it a draft.
 */
export type SaveIntent = "save" | "publish" | "unpublish";
/** Options of the writes that upload an image. */
export interface UploadOptions {
  /** The user's upload limits (default `UPLOAD_QUOTA`: 200 files or 500 MB, SECURITY C36). */
  quota?: UploadQuota;
  /** What the save does to the state (default `publish`, as for the callers before issue #29; the admin's forms always say). */
  intent?: SaveIntent;
  /**
   * An update: the document's `$updatedAt` when the form was opened (issue #16 item 5). When the document
   * changed since, the update is refused with `EditConflictError`.
   */
  expectedVersion?: string;
  /**
   * More columns written with the form's fields: a language version's `locale` and translation provenance,
   * and for the version that shares another's image, its image URL (issue #15 item 6).
   */
  columns?: Record<string, unknown>;
  /**
   * The publish time the editor picked (issue #29 item 2: an instant, ISO 8601), or null for none ("now" when
   * publishing). Undefined keeps the stored one (an update) or none.
   */
  publishAt?: string | null;
  /** The time of the save, ms since the epoch (tests inject it; default now). */
  now?: number;
  /** An update: the row as the caller has just read it with the same session (spares reading it again). */
  current?: Models.DefaultRow;
  /** The roles the user holds (`userRoles`), when the caller already looked them up. */
  held?: readonly string[];
  /**
   * A create: the permissions of the item this row is a language version of (its editors', issue #28 item 5),
   * instead of the creator's (`ownerPermissions`).
   */
  permissions?: readonly string[];
}

/** The item changed since the form was opened: the second of two concurrent saves (issue #16 item 5). */
export class EditConflictError extends Error {
  override name = "EditConflictError";
  constructor(
    /** Its `$updatedAt` now (the version a deliberate overwrite sends). */
    readonly updatedAt: string,
    /** Who saved it last (`updatedBy`), or null when unknown (written before the lifecycle, or promoted). */
    readonly updatedBy: string | null,
  ) {
    super(`The item was changed by ${updatedBy ?? "someone else"} at ${updatedAt} since it was opened.`);
  }
}

/**
 * The lifecycle of a save (issue #29 item 1; no intent is `publish`): `save` keeps `current`'s state and due time (a new item is a
 * draft, with the time the editor picked kept for later); `unpublish` makes a draft, keeping the time;
 * `publish` publishes at the picked time, scheduled when it is after `now`, or now when none was picked.
 */
function lifecycleOf(
  intent: SaveIntent | undefined,
  current: Models.DefaultRow | null,
  picked: string | null | undefined,
  now = Date.now(),
): { state: ItemState; publishAt: string | null } {
  const stored = (current?.[PUBLISH_AT_COLUMN] as string | null | undefined) ?? null;
  if (intent === "publish" || intent === undefined) {
    const at = picked ?? null;
    return { state: stateFor(false, at, now), publishAt: at ?? new Date(now).toISOString() };
  }
  const publishAt = picked === undefined ? stored : picked;
  if (intent === "unpublish" || !current) return { state: "draft", publishAt };
  const state = stateOf(current);
  // A published or scheduled item keeps its time: only "Schedule…" / "Change schedule…" moves it.
  return { state, publishAt: state === "draft" ? publishAt : stored };
}

/**
 * Creates a venture or post as `user`, in the state `options.intent` asks for (a draft unless `publish`:
 * then published, or scheduled when `options.publishAt` is in the future; issues #16, #29), uploading its image first (within the user's quota, with the API key
 * of `target`, owned by the user); if the document cannot be written, the image just uploaded is deleted
 * again (no orphans, SECURITY C44).
 * @param target the Appwrite project and its API key (the image upload); the document is written by `session`.
 * @throws {QuotaExceededError} when the image would take the user over their quota (nothing is written);
 * {HtmlBoundsError} when the body breaks a bound of `HTML_BOUNDS` (SECURITY C53; nothing is uploaded or written);
 * {AppwriteException} from Appwrite (show `submissionErrorMessage`).
 */
export async function createItem<K extends ContentKind>(
  target: AppwriteTarget,
  session: SessionServices,
  user: SignedInUser,
  kind: K,
  input: Input<K>,
  image: CheckedImage | null,
  options: UploadOptions = {},
): Promise<Models.DefaultRow> {
  const { imageField } = CONTENT_KINDS[kind];
  const fields = await documentData(kind, input, target); // refuses an over-bound body before any upload
  if (image) await assertWithinQuota(session.storage, user.id, image.bytes.byteLength, options);
  return createItemDocument(writerFor(target, session, options.held ?? (await userRoles(target, user))), {
    kind,
    data: { ...fields, [imageField]: null, userId: user.id, ...options.columns },
    permissions: options.permissions ? [...options.permissions] : ownerPermissions(user.id),
    image: image ? adminImage(target, user, image) : null,
    lifecycle: lifecycleOf(options.intent, null, options.publishAt, options.now),
    savedBy: user.name,
  });
}

/**
 * Updates a venture or post as `user`, in the state `options.intent` asks for (its read permission follows
 * the state; its other permissions are kept). With a new image, the quota is checked (the image it replaces does
 * not count), the old one is deleted with the user's session (failure ignored), then the new one uploaded
 * with the API key of `target` (spec §4); a new image whose document update fails is deleted again.
 * @throws {QuotaExceededError} when the new image would take the user over their quota (nothing changed);
 * {HtmlBoundsError} when the body breaks a bound of `HTML_BOUNDS` (SECURITY C53; nothing changed);
 * {EditConflictError} when it changed since `options.expectedVersion` (nothing changed);
 * {AppwriteException} from Appwrite: 404 when missing, 401 when the user may not change it.
 */
export async function updateItem<K extends ContentKind>(
  target: AppwriteTarget,
  session: SessionServices,
  user: SignedInUser,
  kind: K,
  documentId: string,
  input: Input<K>,
  image: CheckedImage | null,
  options: UploadOptions = {},
): Promise<Models.DefaultRow> {
  const { collectionId, imageField } = CONTENT_KINDS[kind];
  const ids = { databaseId: DATABASE_ID, tableId: collectionId, rowId: documentId };
  const fields = await documentData(kind, input, target); // refuses an over-bound body before touching images
  const current = options.current ?? (await session.tablesDB.getRow(ids));
  if (options.expectedVersion && options.expectedVersion !== current.$updatedAt) {
    throw new EditConflictError(current.$updatedAt, (current[UPDATED_BY_COLUMN] as string | null) ?? null);
  }
  const held = options.held ?? (await userRoles(target, user));
  // Ownership first (the creator or the studio team): nothing is touched for a user who may not change it.
  if (!mayAct(current.$permissions, held, "update")) throw notAuthorized();
  if (image) {
    const replaced = typeof current[imageField] === "string" ? parseFileViewUrl(current[imageField]) : null;
    await assertWithinQuota(session.storage, user.id, image.bytes.byteLength, {
      ...options,
      replacing: replaced?.bucketId === IMAGES_BUCKET_ID ? replaced.fileId : undefined,
    });
    await deleteImage(session, current[imageField]);
  }
  return updateItemDocument(writerFor(target, session, held), documentId, {
    kind,
    data: { ...fields, ...options.columns },
    image: image ? adminImage(target, user, image) : null,
    lifecycle: lifecycleOf(options.intent, current, options.publishAt, options.now),
    permissions: current.$permissions,
    savedBy: user.name,
    // The history: the version replaced, kept with the API key (it carries the item's other editors' roles).
    previous: current,
    historyClient: createAdminServices(target).client,
  });
}

/**
 * Deletes a venture or post as `user`: its image first when present, then the document (spec §4).
 * @throws {AppwriteException} from Appwrite: 404 when missing, 401 when the user may not delete it.
 */
export async function deleteItem(
  session: SessionServices,
  user: SignedInUser,
  kind: ContentKind,
  documentId: string,
  held?: readonly string[],
): Promise<void> {
  const { collectionId, imageField } = CONTENT_KINDS[kind];
  const ids = { databaseId: DATABASE_ID, tableId: collectionId, rowId: documentId };
  const current = await session.tablesDB.getRow(ids);
  if (!mayAct(current.$permissions, held ?? heldRoles(user.id, null), "delete")) throw notAuthorized();
  await deleteImage(session, current[imageField]);
  await deleteItemDocument(session.tablesDB, kind, documentId);
}
