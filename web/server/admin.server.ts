/**
 * Server helpers of the admin routes: the signed-in user's session client, reading and validating the
 * venture and post forms (only the spec's fields are read: SECURITY C40) and saving them in the state the
 * pressed button asks for (issue #16). Lists and counts: `admin-lists.server.ts`.
 */
import { AppwriteException, type Models } from "node-appwrite";
import { data, redirect } from "react-router";
import type { z } from "zod";
import {
  createItem,
  deleteItem,
  EditConflictError,
  updateItem,
  submissionErrorMessage,
  type SaveIntent,
  type PostInput,
  type VentureInput,
} from "../../server/admin/content.ts";
import { QuotaExceededError } from "../../server/admin/quota.ts";
import { HtmlBoundsError, type HtmlBoundViolation } from "../../lib/html/bounds.ts";
import { normalizeBodyAsync } from "../../lib/html/body.ts";
import type { SignedInUser } from "../../server/auth/account.ts";
import { createSessionServices, stripAdminMode, type SessionServices } from "../../lib/appwrite/client.ts";
import { checkImage, ImageRejectedError, type CheckedImage } from "../../lib/images/upload.ts";
import { CONTENT_KINDS, DATABASE_ID, formSchema, HTTP_URL_MESSAGE, type ContentKind } from "../../schemas/content.ts";
import { CONTENT_MODEL, formFieldNames, imageInput, type ContentKindSpec } from "../../schemas/model.ts";
import { AiNotConfiguredError } from "../../lib/ai/gemini.ts";
import { dateField, PUBLISH_AT_COLUMN, stateOf, type ItemState } from "../../schemas/lifecycle.ts";
import { loadConfig } from "../../lib/config.ts";
import { appwriteLocation, getApiKeyServices, getLimitLog } from "./appwrite.server.ts";
import { publicImageUrl } from "./content.server.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { preferredLocale, requireUser } from "./session.server.ts";
import { takeFromWindow, type EventLog } from "../../server/limits/event-log.ts";
import {
  loadOtherVersion,
  otherVersionIds,
  postedOtherVersion,
  postedVersionValues,
  provenanceColumns,
  versionKeyOf,
  type OtherVersion,
} from "./admin-versions.server.ts";
import { otherLocale } from "../../lib/translate/status.ts";
import { translatedFields, type ContentLocale } from "../../schemas/model.ts";

/** The per-request session client of the signed-in user (Appwrite SSR guide: never shared). */
export function sessionServices(secret: string): SessionServices {
  return createSessionServices(appwriteLocation(), secret);
}

export type FieldErrors = Partial<Record<string, string>>;

export interface ParsedForm<T> {
  input: T | null;
  image: CheckedImage | null;
  errors: FieldErrors;
}

/** The string values of `kind`'s form fields in `form` (anything else posted is ignored: SECURITY C40). */
function typedValues(kind: ContentKind, form: FormData): Record<string, string> {
  return Object.fromEntries(formFieldNames(kind).map((name) => [name, String(form.get(name) ?? "")]));
}

/**
 * Reads a venture or post form: its spec fields (anything else posted is ignored) and an optional image,
 * checked by content. Field errors are keyed by field name; a URL refused by the `httpUrl` rule (SECURITY C58)
 * gets the `admin.errors.httpUrl` text in `locale`.
 */
export async function parseItemForm<K extends ContentKind>(
  kind: K,
  form: FormData,
  locale: "en" | "ar" = "en",
): Promise<ParsedForm<K extends "venture" ? VentureInput : PostInput>> {
  const result = (formSchema(kind) as z.ZodType).safeParse(typedValues(kind, form));
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const message = issue.message === HTTP_URL_MESSAGE ? getI18n(locale).t("admin.errors.httpUrl") : issue.message;
      errors[String(issue.path[0])] ??= message;
    }
  }

  let image: CheckedImage | null = null;
  const file = form.get(imageInput(kind));
  if (file instanceof File && file.size > 0) {
    try {
      image = await checkImage(new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof ImageRejectedError)) throw error;
      errors[imageInput(kind)] = error.message;
    }
  }
  return { input: result.success ? result.data : null, image, errors } as ParsedForm<
    K extends "venture" ? VentureInput : PostInput
  >;
}

/** One document for an edit form, or null when it does not exist. */
export async function getItem(
  session: SessionServices,
  kind: ContentKind,
  id: string,
): Promise<Models.DefaultRow | null> {
  try {
    return await session.tablesDB.getRow({
      databaseId: DATABASE_ID,
      tableId: CONTENT_KINDS[kind].collectionId,
      rowId: id,
    });
  } catch (error) {
    if ((error as { code?: number }).code === 404) return null;
    throw error;
  }
}

/** Drafts per user per hour through the admin (SECURITY C43, P: 20). */
export const AI_DRAFTS_PER_HOUR = 20;

/**
 * Counts one AI call (draft or image) for `userId` in the shared limit log (`getLimitLog`, so every site process
 * counts together); false when the user already made `AI_DRAFTS_PER_HOUR` in the last hour (a sliding window).
 * `log` is for tests.
 * @throws the log's error (an Appwrite failure): the route answers it as a failure, never calling Gemini.
 */
export async function takeAiAllowance(
  userId: string,
  now = Date.now(),
  log: EventLog = getLimitLog(),
): Promise<boolean> {
  return (await takeFromWindow(log, `ai:${userId}`, AI_DRAFTS_PER_HOUR, 3_600_000, now)).allowed;
}

/**
 * The lists' delete action (spec §4: delete dialog → deleting → list reloaded): deletes as the signed-in
 * user (image first, then the document), the item's other language versions too. Failures are returned for the dialog to log (spec §8).
 */
export async function deleteFromList(request: Request, kind: ContentKind, secret: string, user: SignedInUser) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  if (form.get("intent") !== "delete" || !id) return { ok: false, error: "Nothing to delete." };
  try {
    const session = sessionServices(secret);
    // A list row is an item: its other language versions go with it (issue #15 item 6).
    const others = await otherVersionIds(session, kind, id);
    await deleteItem(session, user, kind, id);
    for (const other of others) await deleteItem(session, user, kind, other);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: submissionErrorMessage(error) };
  }
}

/** What an edit form starts with (strings only; the image as the URL the browser loads). */
export interface FormValues {
  values: Record<string, string>;
  image: string | null;
  /** The item's state; a new item's is null. */
  state: ItemState | null;
  /** The item's `$updatedAt` when the form was opened (posted back as `version`); a new item's is null. */
  version: string | null;
  /** The locale of the route's document (issue #15 item 6); a new item's is `en`. */
  locale: ContentLocale;
  /** The item's version in the other locale (its fields are in `values` as `<locale>.<field>`). */
  other: OtherVersion;
}

/**
 * A new item's form values of its versions (issue #15 item 6): `initial` (the route's, English) and an empty
 * Arabic version, to be saved as a translation of the English one.
 */
export async function newFormValues(secret: string, kind: ContentKind, initial: Record<string, string>) {
  const both = await loadOtherVersion(sessionServices(secret), kind, null);
  return {
    values: { ...initial, ...both.values },
    image: null,
    state: null,
    version: null,
    locale: both.locale,
    other: both.other,
  } satisfies FormValues;
}

/**
 * The edit form's current values, or a 404 with the spec's text (§8: "Failed to load venture data." /
 * "Failed to load post data.").
 * @throws {Response} 404 when the item does not exist.
 */
export async function loadFormValues(secret: string, kind: ContentKind, id: string): Promise<FormValues> {
  const session = sessionServices(secret);
  const doc = await getItem(session, kind, id);
  if (!doc) throw data({ message: `Failed to load ${kind} data.` }, { status: 404 });
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  const values = Object.fromEntries(
    formFieldNames(kind).map((name) => {
      const value = String(doc[name] ?? "");
      // A date input's value is YYYY-MM-DD.
      return [name, spec.fields[name]?.type === "date" ? value.slice(0, 10) : value];
    }),
  );
  // A kind without a date field is scheduled by its "Publish on" (issue #16 item 1).
  if (!dateField(kind)) values[PUBLISH_AT_COLUMN] = String(doc[PUBLISH_AT_COLUMN] ?? "").slice(0, 10);
  const both = await loadOtherVersion(session, kind, doc);
  return {
    values: { ...values, ...both.values },
    locale: both.locale,
    other: both.other,
    image: publicImageUrl(stripAdminMode((doc[CONTENT_KINDS[kind].imageField] as string | null) ?? null)),
    state: stateOf(doc),
    version: doc.$updatedAt,
  };
}

/**
 * The "Publish on" date a form posts for a kind without a date field of its own (a venture; a post's date is its
 * due time): undefined when the kind has one or the form posts none (the stored due time is kept), null when
 * left empty (published when saved), else the day (`YYYY-MM-DD`, from midnight UTC; issue #16 item 1). A value
 * that is not a calendar day is an error on `publishAt` in `locale`, added to `errors`.
 */
function postedPublishAt(
  kind: ContentKind,
  form: FormData,
  errors: FieldErrors,
  locale: "en" | "ar",
): string | null | undefined {
  if (dateField(kind) || !form.has(PUBLISH_AT_COLUMN)) return undefined;
  const value = String(form.get(PUBLISH_AT_COLUMN) ?? "").trim();
  if (value === "") return null;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) {
    errors[PUBLISH_AT_COLUMN] = getI18n(locale).t("admin.errors.date");
    return undefined;
  }
  return value;
}

/** The save intent a form's submit button posts (`intent`): `draft`, `unpublish`, else `publish`. */
function saveIntentOf(value: FormDataEntryValue | null): SaveIntent {
  return value === "draft" || value === "unpublish" ? value : "publish";
}

/**
 * The forms' action: validates, then creates or updates as the signed-in user and goes back to the list;
 * otherwise returns the field errors or the spec's submission error (§8) with what was typed. An image over
 * the user's upload quota (SECURITY C36) is an error on the image field, a body that breaks a bound of
 * `HTML_BOUNDS` (SECURITY C53) an error on the body field, both in the admin's language. An update posts the
 * `version` (`$updatedAt`) its form was opened with; when the item changed since, nothing is written and the
 * answer is 409 "changed by <name> at <time> since you opened it" with the current version (issue #16 item 5).
 */
export async function saveItem(request: Request, kind: ContentKind, id: string | undefined) {
  const { secret, user } = await requireUser(request);
  const form = await request.formData();
  const intent = saveIntentOf(form.get("intent"));
  const expectedVersion = String(form.get("version") ?? "") || undefined;
  const parsed = await parseItemForm(kind, form, preferredLocale(request));
  const publishAt = postedPublishAt(kind, form, parsed.errors, preferredLocale(request));
  const other = postedOtherVersion(kind, form);
  const typed = { ...typedValues(kind, form), ...postedVersionValues(kind, form) };
  if (form.has(PUBLISH_AT_COLUMN)) typed[PUBLISH_AT_COLUMN] = String(form.get(PUBLISH_AT_COLUMN));
  typed.otherLocale = other.locale;
  const otherInput = other.empty ? null : validateOther(kind, form, other.fields, parsed.errors);
  if (!parsed.input || Object.keys(parsed.errors).length > 0 || (!other.empty && !otherInput)) {
    return data({ errors: parsed.errors, formError: null as string | null, values: typed }, { status: 400 });
  }
  // Images are uploaded with the site's key after the quota check (SECURITY C61): users may not create files.
  const target = getApiKeyServices().target;
  const session = sessionServices(secret);
  const locale = otherLocale(other.locale);
  const input = parsed.input as unknown as Record<string, string>;
  const translated = (fields: Record<string, string>) =>
    Object.fromEntries(translatedFields(kind).map((n) => [n, fields[n]]));
  try {
    if (other.id && other.version) {
      // The other version is checked before anything is written: a save writes both or neither.
      const current = await getItem(session, kind, other.id);
      if (current && current.$updatedAt !== other.version) {
        throw new OtherVersionConflict(current.$updatedAt, (current.updatedBy as string | null) ?? null);
      }
    }
    if (otherInput) {
      // Its body's bounds first too (SECURITY C53), reported on its own field.
      const body = CONTENT_KINDS[kind].bodyField;
      try {
        await normalizeBodyAsync(otherInput[body] ?? "");
      } catch (error) {
        if (!(error instanceof HtmlBoundsError)) throw error;
        const message = bodyBoundsMessage(preferredLocale(request), error.violation);
        return data(
          { errors: { [versionKeyOf(other.locale, body)]: message } as FieldErrors, formError: null, values: typed },
          { status: 400 },
        );
      }
    }
    const columns = await provenanceColumns(kind, form, locale, otherInput ? translated(otherInput) : null);
    const saved = id
      ? await updateItem(target, session, user, kind, id, parsed.input as never, parsed.image, {
          intent,
          expectedVersion,
          columns,
          publishAt,
        })
      : await createItem(target, session, user, kind, parsed.input as never, parsed.image, {
          intent,
          columns,
          publishAt,
        });
    if (otherInput) {
      const imageField = CONTENT_KINDS[kind].imageField;
      const otherColumns = {
        ...(await provenanceColumns(kind, form, other.locale, translated(input), !other.id)),
        [imageField]: saved[imageField] ?? null,
      };
      const options = { intent, columns: otherColumns, publishAt };
      if (other.id) await updateItem(target, session, user, kind, other.id, otherInput as never, null, options);
      else await createItem(target, session, user, kind, otherInput as never, null, options);
    }
  } catch (error) {
    if (error instanceof EditConflictError) {
      // Nothing was written; the typed input comes back, with their version to compare and to overwrite.
      const { t } = getI18n(preferredLocale(request));
      const formError = t("admin.lifecycle.conflict", {
        name: error.updatedBy ?? t("admin.lifecycle.someoneElse"),
        time: `${error.updatedAt.slice(11, 16)} UTC`,
      });
      // The version that changed is the one whose expected version is replaced (a deliberate overwrite).
      const conflict =
        error instanceof OtherVersionConflict
          ? { version: expectedVersion ?? null, otherVersion: error.updatedAt }
          : { version: error.updatedAt, otherVersion: other.version };
      return data({ errors: {} as FieldErrors, formError, values: typed, conflict }, { status: 409 });
    }
    if (error instanceof HtmlBoundsError) {
      const field = CONTENT_KINDS[kind].bodyField;
      const message = bodyBoundsMessage(preferredLocale(request), error.violation);
      return data(
        { errors: { [field]: message } as FieldErrors, formError: null as string | null, values: typed },
        { status: 400 },
      );
    }
    if (error instanceof QuotaExceededError) {
      const message = getI18n(preferredLocale(request)).t("admin.errors.uploadQuota", {
        files: error.quota.files,
        megabytes: Math.round(error.quota.bytes / 1048576),
      });
      return data(
        { errors: { [imageInput(kind)]: message } as FieldErrors, formError: null as string | null, values: typed },
        { status: 400 },
      );
    }
    const status = error instanceof AppwriteException && error.code < 500 ? error.code : 500;
    return data({ errors: {} as FieldErrors, formError: submissionErrorMessage(error), values: typed }, { status });
  }
  throw redirect(`/admin/${CONTENT_MODEL[kind].adminPath}`);
}

/** The form's other language version changed since the form was opened (issue #15 item 6). */
class OtherVersionConflict extends EditConflictError {}

/**
 * The other language version's input (the form's shared fields with its translated ones), or null with its
 * field errors added to `errors` under `<locale>.<field>`.
 */
function validateOther(
  kind: ContentKind,
  form: FormData,
  fields: Record<string, string>,
  errors: FieldErrors,
): Record<string, string> | null {
  const result = (formSchema(kind) as z.ZodType).safeParse({ ...typedValues(kind, form), ...fields });
  if (result.success) return result.data as Record<string, string>;
  const locale = form.get("otherLocale") === "en" ? "en" : "ar";
  // An error of a shared field is the route version's too, reported there.
  for (const issue of result.error.issues) {
    const name = String(issue.path[0]);
    if (name in fields) errors[versionKeyOf(locale, name)] ??= issue.message;
  }
  return null;
}

/**
 * The admin's text, in `locale`, for a body that breaks a bound of `HTML_BOUNDS` (SECURITY C53), e.g. "The HTML
 * is nested too deeply: at most 64 levels." / its Arabic (keys `admin.errors.body.*`).
 */
export function bodyBoundsMessage(locale: "en" | "ar", violation: HtmlBoundViolation): string {
  return getI18n(locale).t(`admin.errors.body.${violation.kind}`, { max: String(violation.max) });
}

let aiOffLogged = false;

/**
 * Null when AI drafting can run, else the sentence the forms show beside their disabled AI controls (issue #17
 * item 4): words an editor understands, in their language. The variable to set is for whoever runs the site:
 * it is in the README and, once per process, in the server log, never on the page (SECURITY C41).
 */
export function aiUnavailableMessage(locale: "en" | "ar"): string | null {
  if (loadConfig().geminiApiKey) return null;
  if (!aiOffLogged) {
    aiOffLogged = true;
    console.warn(`[ai] AI drafting is off: ${new AiNotConfiguredError().message} (README "Configuration").`);
  }
  return getI18n(locale).t("admin.ai.notSetUp");
}
