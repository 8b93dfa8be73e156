/**
 * Server helpers of the admin routes: the signed-in user's session client, reading and validating the
 * venture and post forms (only the spec's fields are read: SECURITY C40) and loading them for editing. Saving
 * them: `admin-save.server.ts`; lists and counts: `admin-lists.server.ts`.
 */
import { type Models } from "node-appwrite";
import { data } from "react-router";
import type { z } from "zod";
import { submissionErrorMessage, userRoles } from "../../server/admin/content.ts";
import { trashItem } from "../../server/admin/trash.ts";
import { type HtmlBoundViolation } from "../../lib/html/bounds.ts";
import type { SignedInUser } from "../../server/auth/account.ts";
import { createSessionServices, stripAdminMode, type SessionServices } from "../../lib/appwrite/client.ts";
import { checkImage, ImageRejectedError, type CheckedImage } from "../../lib/images/upload.ts";
import { CONTENT_KINDS, DATABASE_ID, formSchema, type ContentKind, type FormInputOf } from "../../model/content.ts";
import {
  CONTENT_MODEL,
  formFieldNames,
  imageInput,
  type ContentKindSpec,
  type ContentLocale,
} from "../../model/model.ts";
import { AiNotConfiguredError } from "../../lib/ai/gemini.ts";
import { PUBLISH_AT_COLUMN, stateOf, type ItemState } from "../../model/lifecycle.ts";
import { PUBLISH_DAY, PUBLISH_TIME } from "../../lib/publish/publish-rules.ts";
import { siteTimeZone } from "../../lib/publish/site-time-zone.ts";
import { wallTimeOf } from "../../lib/text/time-zone.ts";
import { loadConfig } from "../../lib/config.ts";
import { appwriteLocation, getApiKeyServices, getLimitLog } from "./appwrite.server.ts";
import { publicImageUrl } from "./content.server.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { preferredLocale } from "./session.server.ts";
import { imageRefusalText, issueText } from "./admin-errors.server.ts";
import { takeFromWindow, type EventLog } from "../../server/limits/event-log.ts";
import { loadOtherVersions, otherVersionIds, type OtherVersion } from "./admin-versions.server.ts";
import { deleteFailureOf, setFlash } from "./admin-flash.server.ts";
import { DEFAULT_LOCALE, type Locale } from "../i18n/i18n.ts";
import { readOnlyReason, type Access, type ReadOnlyReason } from "./access.server.ts";

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
export function typedValues(kind: ContentKind, form: FormData): Record<string, string> {
  return Object.fromEntries(formFieldNames(kind).map((name) => [name, String(form.get(name) ?? "")]));
}

/**
 * Reads a venture or post form: its spec fields (anything else posted is ignored) and an optional image,
 * checked by content. Field errors are keyed by field name, in `locale`, naming the field (`issueText`: "Name
 * is required."; a URL refused by the `httpUrl` rule, SECURITY C58, gets `admin.errors.httpUrl`).
 */
export async function parseItemForm<K extends ContentKind>(
  kind: K,
  form: FormData,
  locale: Locale = DEFAULT_LOCALE,
): Promise<ParsedForm<FormInputOf<K>>> {
  const typed = typedValues(kind, form);
  const result = (formSchema(kind) as z.ZodType).safeParse(typed);
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const name = String(issue.path[0]);
      errors[name] ??= issueText(locale, kind, name, issue, typed[name] ?? "");
    }
  }

  let image: CheckedImage | null = null;
  const file = form.get(imageInput(kind));
  if (file instanceof File && file.size > 0) {
    try {
      image = await checkImage(new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof ImageRejectedError)) throw error;
      errors[imageInput(kind)] = imageRefusalText(locale, error.message);
    }
  }
  return { input: result.success ? result.data : null, image, errors } as ParsedForm<FormInputOf<K>>;
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
 * Counts one AI call (draft, image or translation) for `userId` in the shared limit log (`getLimitLog`, so every
 * site process counts together); false when the user already made `AI_DRAFTS_PER_HOUR` in the last hour (a
 * sliding window). Decided atomically (`takeFromWindow`, SECURITY C64): concurrent calls never share the last
 * place. `now` (ms since the epoch; default: the clock once the user's lock is held) and `log` are for tests.
 * @throws the log's error (an Appwrite failure): the route answers it as a failure, never calling Gemini.
 */
export async function takeAiAllowance(userId: string, now?: number, log: EventLog = getLimitLog()): Promise<boolean> {
  return (await takeFromWindow(log, `ai:${userId}`, AI_DRAFTS_PER_HOUR, 3_600_000, now)).allowed;
}

/**
 * The lists' delete action (spec §4: delete dialog → deleting → list reloaded): moves the item to the trash
 * as the signed-in user, its other language versions and their history too (issue #29 item 9: restorable
 * for 30 days, its image kept until the purge). The list then shows, once,
 * "Deleted “…”." or why it was not deleted (issue #17 item 3: a flash cookie, `admin-flash.server.ts`); the
 * failure is also returned for the dialog to log (spec §8). The name is the item's, else the posted `label`.
 */
export async function deleteFromList(request: Request, kind: ContentKind, secret: string, user: SignedInUser) {
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  if (form.get("intent") !== "delete" || !id) {
    return { ok: false, error: getI18n(preferredLocale(request)).t("admin.errors.badRequest") };
  }
  const session = sessionServices(secret);
  let name = String(form.get("label") ?? "").slice(0, 200);
  try {
    const doc = await getItem(session, kind, id);
    if (doc) name = String(doc[CONTENT_MODEL[kind].title] ?? name);
    // A list row is an item: its other language versions go with it (issue #15 item 6).
    const others = await otherVersionIds(session, kind, id);
    const held = await userRoles(getApiKeyServices().target, user);
    // Both versions and their history go to the trash for 30 days (issue #29 item 9).
    await trashItem(getApiKeyServices().target, session, user, kind, id, others, held);
    return data({ ok: true }, { headers: { "Set-Cookie": await setFlash(request, { event: "deleted", name }) } });
  } catch (error) {
    const flash = { event: "deleteFailed", name, reason: deleteFailureOf(error) } as const;
    return data(
      { ok: false, error: submissionErrorMessage(error) },
      { headers: { "Set-Cookie": await setFlash(request, flash) } },
    );
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
  /** The locale of the route's document (issue #15 item 6); a new item's is the admin's language (issue #29 item 8). */
  locale: ContentLocale;
  /** The item's versions in the other locales of the table, in its order (their fields are in `values` as `<locale>.<field>`). */
  others: OtherVersion[];
  /**
   * Why the user may not change the item, shown before any typing (issue #28 item 3): pushed from files (the
   * team's) or another user's; null when they may (and for a new item).
   */
  readOnly: ReadOnlyReason | null;
  /** The site's time zone (issue #29 item 2): the publish time's pickers show and post wall time in it. */
  timeZone: string;
  /** The item's publish time (ISO, UTC) when it is scheduled or published, for the dialog and the lifecycle line. */
  publishAt: string | null;
}

/**
 * A new item's form values of its versions (issue #15 item 6): `initial` (the route's, in `locale`: the
 * admin's language, so an Arabic-first editor starts on the Arabic version and may save it alone, issue #29
 * item 8; default: the default locale) and an empty version in each other locale, to be saved as a
 * translation of the route's.
 */
export async function newFormValues(
  secret: string,
  kind: ContentKind,
  initial: Record<string, string>,
  locale: ContentLocale = DEFAULT_LOCALE,
) {
  const both = await loadOtherVersions(sessionServices(secret), kind, null, locale);
  return {
    values: { ...initial, ...both.values, [PUBLISH_DAY]: "", [PUBLISH_TIME]: "" },
    image: null,
    state: null,
    version: null,
    locale: both.locale,
    others: both.others,
    readOnly: null,
    timeZone: await siteTimeZone(getApiKeyServices().client),
    publishAt: null,
  } satisfies FormValues;
}

/**
 * The edit form's current values (read-only with its reason when `access` may not change it), or a 404 with the spec's text in `locale` (§8: "Failed to load venture
 * data." / "Failed to load post data.").
 * @throws {Response} 404 when the item does not exist.
 */
export async function loadFormValues(
  secret: string,
  kind: ContentKind,
  id: string,
  locale: Locale = DEFAULT_LOCALE,
  access?: Pick<Access, "held">,
): Promise<FormValues> {
  const session = sessionServices(secret);
  const doc = await getItem(session, kind, id);
  if (!doc) {
    const message = getI18n(locale).t(`admin.${CONTENT_MODEL[kind].adminPath}.loadFailed`);
    throw data({ message }, { status: 404 });
  }
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  const values = Object.fromEntries(
    formFieldNames(kind).map((name) => {
      const value = String(doc[name] ?? "");
      // A date input's value is YYYY-MM-DD.
      return [name, spec.fields[name]?.type === "date" ? value.slice(0, 10) : value];
    }),
  );
  // The publish time's pickers (issue #29 item 2): the stored time as wall time in the site's zone, for a
  // scheduled item or a draft's future (planned) time; a past one (an unpublished item's) is not offered again.
  const timeZone = await siteTimeZone(getApiKeyServices().client);
  const stored = typeof doc[PUBLISH_AT_COLUMN] === "string" ? (doc[PUBLISH_AT_COLUMN] as string) : null;
  const planned = stateOf(doc) === "scheduled" || (stateOf(doc) === "draft" && Date.parse(stored ?? "") > Date.now());
  const wall = stored && planned ? wallTimeOf(stored, timeZone) : "";
  values[PUBLISH_DAY] = wall.slice(0, 10);
  values[PUBLISH_TIME] = wall.slice(11, 16);
  const both = await loadOtherVersions(session, kind, doc);
  return {
    values: { ...values, ...both.values },
    locale: both.locale,
    others: both.others,
    image: publicImageUrl(stripAdminMode((doc[CONTENT_KINDS[kind].imageField] as string | null) ?? null)),
    state: stateOf(doc),
    version: doc.$updatedAt,
    readOnly: access ? readOnlyReason(doc.$permissions, access) : null,
    timeZone,
    publishAt: stored,
  };
}

/**
 * The admin's text, in `locale`, for a body that breaks a bound of `HTML_BOUNDS` (SECURITY C53), e.g. "The HTML
 * is nested too deeply: at most 64 levels." / its Arabic (keys `admin.errors.body.*`).
 */
export function bodyBoundsMessage(locale: Locale, violation: HtmlBoundViolation): string {
  return getI18n(locale).t(`admin.errors.body.${violation.kind}`, { max: String(violation.max) });
}

let aiOffLogged = false;

/**
 * Null when AI drafting can run, else the sentence the forms show beside their disabled AI controls (issue #17
 * item 4): words an editor understands, in their language. The variable to set is for whoever runs the site:
 * it is in the README and, once per process, in the server log, never on the page (SECURITY C41).
 */
export function aiUnavailableMessage(locale: Locale): string | null {
  if (loadConfig().geminiApiKey) return null;
  if (!aiOffLogged) {
    aiOffLogged = true;
    console.warn(`[ai] AI drafting is off: ${new AiNotConfiguredError().message} (README "Configuration").`);
  }
  return getI18n(locale).t("admin.ai.notSetUp");
}
