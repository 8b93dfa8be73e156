/**
 * Saving the admin's venture and post forms (spec §4, issue #16, issue #15 item 6): the form's action validates
 * what was posted (both language versions, the "Publish on" day of a kind without a date), then creates or
 * updates the item as the signed-in user in the state the pressed button asks for; field errors, edit
 * conflicts and the spec's submission error (§8) come back with what was typed. Reading the forms:
 * `admin.server.ts`.
 */
import { AppwriteException, type Models } from "node-appwrite";
import { data, redirect } from "react-router";
import type { z } from "zod";
import {
  createItem,
  EditConflictError,
  userRoles,
  submissionErrorMessage,
  updateItem,
  type SaveIntent,
} from "../../server/admin/content.ts";
import { QuotaExceededError } from "../../server/admin/quota.ts";
import { bothOrNeither, notAuthorized, undoFirst } from "./admin-both-versions.server.ts";
import { mayAct, sameEditors } from "../../lib/publish/item-permissions.ts";
import { HtmlBoundsError } from "../../lib/html/bounds.ts";
import { normalizeBodyAsync } from "../../lib/html/body.ts";
import { CONTENT_KINDS, formSchema, type ContentKind } from "../../model/content.ts";
import { PUBLISH_AT_COLUMN, stateOf } from "../../model/lifecycle.ts";
import {
  DEFAULT_CONTENT_LOCALE,
  imageInput,
  isContentLocale,
  translatedFields,
  type ContentLocale,
} from "../../model/model.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import { getApiKeyServices } from "./appwrite.server.ts";
import { issueText, SLUG_TAKEN_MESSAGE, submissionText } from "./admin-errors.server.ts";
import {
  bodyBoundsMessage,
  getItem,
  parseItemForm,
  sessionServices,
  typedValues,
  type FieldErrors,
} from "./admin.server.ts";
import {
  postedOtherVersions,
  postedVersionValues,
  provenanceColumns,
  type PostedOtherVersion,
  versionKeyOf,
} from "./admin-versions.server.ts";
import { preferredLocale, requireUser } from "./session.server.ts";
import { slugUsedElsewhere } from "./admin-slug.server.ts";
import { conflictAnswer, conflictMessage } from "./admin-conflict.server.ts";
import { AUTOSAVE_INTENT, autosaved, editPathOf, NotADraftError, refuseUnlessDraft } from "./admin-autosave.server.ts";
import { setFlash, type FlashEvent } from "./admin-flash.server.ts";
import {
  postedPublishFields,
  postedPublishTime,
  publishChoice,
  publishFlash,
  unreviewedRefusal,
} from "./admin-publish.server.ts";
import { siteTimeZone } from "../../lib/publish/site-time-zone.ts";
import type { Locale } from "../i18n/i18n.ts";
/** The save intent a form's submit button posts (`intent`): `publish`, `unpublish`, else `save` (issue #29 item 1). */
function saveIntentOf(value: FormDataEntryValue | null): SaveIntent {
  return value === "publish" || value === "unpublish" ? value : "save";
}

/**
 * The forms' action: validates, then creates or updates as the signed-in user and goes to the item's edit page
 * (issue #29 item 3: the editor stays in the editor; a new item lands on its own), which shows once a
 * confirmation naming the item (`publishFlash`, issue #17 item 3, issue #29 item 1); otherwise returns the field
 * errors or the spec's submission error (§8) with what was typed. An image over the user's upload quota
 * (SECURITY C36) is an error on the image field, a body that breaks a bound of `HTML_BOUNDS` (SECURITY C53) an
 * error on the body field, both in the admin's language. An update posts the `version` (`$updatedAt`) its form
 * was opened with; when the item changed since, nothing is written and the answer is 409 "changed by <name>
 * at <time> since you opened it" with the current version (issue #16 item 5).
 * An autosave (`intent=autosave`, issue #29 item 3) goes through the same checks but answers with what it
 * wrote (`autosaved`) instead of a redirect, and is refused (409, nothing written) on an item, or a version
 * of it, that is not a draft: it never changes what guests see.
 */
export async function saveItem(request: Request, kind: ContentKind, id: string | undefined) {
  const { secret, user } = await requireUser(request);
  const form = await request.formData();
  // An autosave (issue #29 item 3) writes a draft as a draft, never anything guests see (`refuseUnlessDraft`).
  const autosave = form.get("intent") === AUTOSAVE_INTENT;
  // An autosave is a plain save (never a visibility change), of a draft only.
  const intent = autosave ? "save" : saveIntentOf(form.get("intent"));
  const expectedVersion = String(form.get("version") ?? "") || undefined;
  const adminLocale = preferredLocale(request);
  const locale = postedRouteLocale(form);
  const zone = await siteTimeZone(getApiKeyServices().client);
  const typedPublish = postedPublishFields(form);
  const picked = postedPublishTime(kind, form, intent, zone);
  const parsed = await parseItemForm(kind, form, adminLocale);
  if (picked.error) parsed.errors[PUBLISH_AT_COLUMN] = getI18n(adminLocale).t(`admin.errors.${picked.error}`);
  const publishAt = picked.publishAt;
  const others = postedOtherVersions(kind, form, locale);
  const typed = { ...typedValues(kind, form), ...postedVersionValues(kind, form), ...typedPublish };
  const otherInputs = new Map<ContentLocale, Record<string, string> | null>();
  for (const other of others) {
    if (!other.empty) otherInputs.set(other.locale, validateOther(kind, form, other, parsed.errors, adminLocale));
  }
  if (!parsed.input || Object.keys(parsed.errors).length > 0 || [...otherInputs.values()].includes(null)) {
    return data({ errors: parsed.errors, formError: null as string | null, values: typed }, { status: 400 });
  }
  // Which versions go public (issue #29 item 1): an unreviewed translation only when the editor confirmed it.
  const versions = publishChoice(form, intent, [locale, ...others.filter((o) => !o.empty).map((o) => o.locale)]);
  if (versions.refused) {
    const formError = unreviewedRefusal(adminLocale, versions.held);
    return data({ errors: {} as FieldErrors, formError, values: typed, unreviewed: versions.held }, { status: 400 });
  }
  // Images are uploaded with the site's key after the quota check (SECURITY C61): users may not create files.
  const target = getApiKeyServices().target;
  const session = sessionServices(secret);
  const input = parsed.input as unknown as Record<string, string>;
  const translated = (fields: Record<string, string>) =>
    Object.fromEntries(translatedFields(kind).map((n) => [n, fields[n]]));
  // Each version saved here by locale, for the provenance of the versions translated from it.
  const saving = new Map<ContentLocale, Record<string, string>>([[locale, input]]);
  for (const [l, fields] of otherInputs) saving.set(l, fields!);
  const sourceOf = (l: ContentLocale) => {
    const from = form.get(versionKeyOf(l, "sourceLocale"));
    const fields = isContentLocale(from) && from !== l ? saving.get(from) : undefined;
    return fields ? translated(fields) : null;
  };
  let flash: FlashEvent;
  // Each version written, by locale (the route's first): the confirmation names them, an autosave answers them.
  const written = new Map<ContentLocale, Models.DefaultRow>();
  try {
    const held = await userRoles(target, user);
    const route = id ? await getItem(session, kind, id) : null;
    // The other versions are checked before anything is written: a save writes all or none. Each must be the
    // item's (its editors') and one this user may change (issue #28 item 5).
    for (const other of others) {
      if (!other.id) continue;
      const current = await getItem(session, kind, other.id);
      if (
        current &&
        (!mayAct(current.$permissions, held, "update") ||
          (route && !sameEditors(current.$permissions, route.$permissions)))
      ) {
        throw notAuthorized();
      }
      if (autosave && current) refuseUnlessDraft(current);
      if (current && other.version && current.$updatedAt !== other.version) {
        throw new OtherVersionConflict(current.$updatedAt, (current.updatedBy as string | null) ?? null, other.locale);
      }
    }
    // Their bodies' bounds first too (SECURITY C53), each reported on its own field.
    const body = CONTENT_KINDS[kind].bodyField;
    for (const [l, fields] of otherInputs) {
      try {
        await normalizeBodyAsync(fields![body] ?? "");
      } catch (error) {
        if (!(error instanceof HtmlBoundsError)) throw error;
        const message = bodyBoundsMessage(adminLocale, error.violation);
        return data(
          { errors: { [versionKeyOf(l, body)]: message } as FieldErrors, formError: null, values: typed },
          { status: 400 },
        );
      }
    }
    // A new or renamed item's slug may not be another item's in any language (issue #29 item 8).
    const slug = String(input.slug ?? "");
    const own = [id, ...others.map((o) => o.id)].filter((x): x is string => Boolean(x));
    if ((!route || route.slug !== slug) && (await slugUsedElsewhere(kind, slug, own))) {
      const errors: FieldErrors = { slug: submissionText(adminLocale, SLUG_TAKEN_MESSAGE).text };
      return data({ errors, formError: null as string | null, values: typed }, { status: 409 });
    }
    const columns = await provenanceColumns(kind, form, locale, sourceOf(locale));
    // The state before the save, for the confirmation: "Published …" or "Saved …" (issue #17 item 3).
    const before = id ? await getItem(session, kind, id) : null;
    if (autosave && before) refuseUnlessDraft(before);
    const saved = id
      ? await updateItem(target, session, user, kind, id, parsed.input as never, parsed.image, {
          intent: versions.intentOf(locale),
          expectedVersion,
          columns,
          publishAt,
          current: before ?? undefined,
          held,
        })
      : await createItem(target, session, user, kind, parsed.input as never, parsed.image, {
          intent: versions.intentOf(locale),
          columns,
          publishAt,
          held,
        });
    written.set(locale, saved);
    for (const other of others) {
      const otherInput = otherInputs.get(other.locale);
      if (!otherInput) continue;
      const imageField = CONTENT_KINDS[kind].imageField;
      const otherColumns = {
        ...(await provenanceColumns(kind, form, other.locale, sourceOf(other.locale), !other.id)),
        [imageField]: saved[imageField] ?? null,
      };
      // A new version gets the item's editors (issue #28 item 5): it belongs to the item, not to who wrote it.
      const options = {
        intent: versions.intentOf(other.locale),
        columns: otherColumns,
        publishAt,
        held,
        permissions: saved.$permissions,
      };
      const row = await bothOrNeither(
        () =>
          other.id
            ? updateItem(target, session, user, kind, other.id, otherInput as never, null, options)
            : createItem(target, session, user, kind, otherInput as never, null, options),
        () => undoFirst(session, user, kind, before, saved, held),
      );
      if (row) written.set(other.locale, row);
    }
    flash = publishFlash(kind, written, intent, before ? stateOf(before) : null, { held: versions.held, zone });
  } catch (error) {
    if (error instanceof NotADraftError) {
      const formError = getI18n(adminLocale).t("admin.autosave.notDraft");
      return data({ errors: {} as FieldErrors, formError, values: typed, notDraft: true }, { status: 409 });
    }
    if (error instanceof EditConflictError) {
      // Nothing was written; the typed input comes back, with their version to compare and to overwrite.
      const formError = conflictMessage(error, adminLocale, zone);
      // The version that changed is the one whose expected version is replaced (a deliberate overwrite).
      const otherVersions = Object.fromEntries(others.map((o) => [o.locale, o.version]));
      const fallback =
        error instanceof OtherVersionConflict
          ? { version: expectedVersion ?? null, otherVersions: { ...otherVersions, [error.locale]: error.updatedAt } }
          : { version: error.updatedAt, otherVersions };
      // Every version's current time and their text (issue #29 item 5): "Overwrite theirs" passes the first time.
      const pressed = String(form.get("intent") ?? "");
      const conflict = id
        ? await conflictAnswer(secret, kind, id, pressed, adminLocale, fallback)
        : { ...fallback, theirs: null, intent: pressed };
      return data({ errors: {} as FieldErrors, formError, values: typed, conflict }, { status: 409 });
    }
    if (error instanceof HtmlBoundsError) {
      const field = CONTENT_KINDS[kind].bodyField;
      const message = bodyBoundsMessage(adminLocale, error.violation);
      return data(
        { errors: { [field]: message } as FieldErrors, formError: null as string | null, values: typed },
        { status: 400 },
      );
    }
    if (error instanceof QuotaExceededError) {
      const message = getI18n(adminLocale).t("admin.errors.uploadQuota", {
        files: error.quota.files,
        megabytes: Math.round(error.quota.bytes / 1048576),
      });
      return data(
        { errors: { [imageInput(kind)]: message } as FieldErrors, formError: null as string | null, values: typed },
        { status: 400 },
      );
    }
    const status = error instanceof AppwriteException && error.code < 500 ? error.code : 500;
    // A taken slug is the slug field's error; the others are the form's (spec §8), in the admin's language.
    const failed = submissionText(adminLocale, submissionErrorMessage(error));
    const errors: FieldErrors = failed.field ? { [failed.field]: failed.text } : {};
    return data({ errors, formError: failed.field ? null : failed.text, values: typed }, { status });
  }
  const first = written.get(locale)!;
  if (autosave) {
    const otherVersions = Object.fromEntries(
      [...written].filter(([l]) => l !== locale).map(([l, row]) => [l, row.$updatedAt]),
    );
    return autosaved(first, otherVersions);
  }
  // The editor stays on the item's edit page (a new item lands on its own), which confirms the save once with
  // the item's new state (issue #29 item 3, issue #17 item 3).
  throw redirect(editPathOf(kind, first.$id), {
    headers: { "Set-Cookie": await setFlash(request, flash) },
  });
}

/** One of the form's other language versions (`locale`) changed since the form was opened (issue #15 item 6). */
class OtherVersionConflict extends EditConflictError {
  constructor(
    updatedAt: string,
    updatedBy: string | null,
    readonly locale: ContentLocale,
  ) {
    super(updatedAt, updatedBy);
  }
}

/**
 * The locale of the route's document as its form posts it (`locale`, a hidden input of the version tabs); a
 * form without one (a client that posts only the route's version) means the default locale.
 * @throws a 400 Response when it names no locale of the table (a forged or broken form), never a fallback.
 */
function postedRouteLocale(form: FormData): ContentLocale {
  const value = form.get("locale");
  if (value === null) return DEFAULT_CONTENT_LOCALE;
  if (isContentLocale(value)) return value;
  throw new Response("locale must be one of the site's locales", { status: 400 });
}

/**
 * An other language version's input (the form's shared fields with its translated ones), or null with its
 * field errors added to `errors` under `<locale>.<field>`, in `adminLocale`, naming the version's field.
 */
function validateOther(
  kind: ContentKind,
  form: FormData,
  other: PostedOtherVersion,
  errors: FieldErrors,
  adminLocale: Locale,
): Record<string, string> | null {
  const { fields, locale } = other;
  const result = (formSchema(kind) as z.ZodType).safeParse({ ...typedValues(kind, form), ...fields });
  if (result.success) return result.data as Record<string, string>;
  // An error of a shared field is the route version's too, reported there.
  for (const issue of result.error.issues) {
    const name = String(issue.path[0]);
    if (name in fields) {
      errors[versionKeyOf(locale, name)] ??= issueText(adminLocale, kind, name, issue, fields[name] ?? "", locale);
    }
  }
  return null;
}
