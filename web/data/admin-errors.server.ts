/**
 * The admin's server messages in the admin's language (issue #17 items 1–2), translated at the edge: `model/`
 * keeps its English zod messages (what `studio` prints); here an issue's code and parameters become a message
 * key of `web/i18n/locales/*.json` naming the field ("Name is required.", "الاسم مطلوب."). The English texts
 * keep the wording of the rules they translate ("must be lowercase letters, digits and single hyphens",
 * "Another item already uses this slug; choose a different one.", "Only JPEG, PNG, GIF or WebP images can be
 * uploaded.").
 */
import type { z } from "zod";
import type { TranslationViolation } from "../../lib/translate/checks.ts";
import type { RuleViolation } from "../../lib/html/rules.ts";
import { isolateValues } from "../i18n/isolate.ts";
import { HTTP_URL_MESSAGE } from "../../model/content.ts";
import type { ContentKind } from "../../model/model.ts";
import { AUTHORIZATION_ERROR, SUBMISSION_ERROR } from "../../server/admin/content.ts";
import { fieldLabelKey } from "../i18n/admin-labels.ts";
import { allMessages, getI18n } from "../i18n/catalog.server.ts";
import { lookup } from "../i18n/t.ts";
import type { Locale } from "../i18n/i18n.ts";

/** The message `Another item already uses this slug; choose a different one.` (server/admin/content.ts). */
export const SLUG_TAKEN_MESSAGE = "Another item already uses this slug; choose a different one.";

/**
 * The label of `kind`'s field `name` in `locale`, without a trailing "(HTML…)" note; with `version`, the
 * other language version's field, named as its form labels it ("Name (العربية)").
 */
export function fieldLabel(locale: Locale, kind: ContentKind, name: string, version?: Locale): string {
  const { t } = getI18n(locale);
  const label = t(fieldLabelKey(kind, name)).replace(/\s*\([^)]*\)\s*$/, "");
  return version ? `${label} (${t(`admin.languages.${version}`)})` : label;
}

/**
 * "<Field> is required." in `locale`: `admin.errors.required.<field>` for a field whose sentence differs in a
 * language (Arabic agreement: "دراسة الحالة مطلوبة."; English keeps the same sentence there, as every key is in
 * both files), else `admin.errors.field.required`.
 */
export function requiredText(locale: Locale, kind: ContentKind, name: string, version?: Locale): string {
  const field = fieldLabel(locale, kind, name, version);
  const own = `admin.errors.required.${name}`;
  const key = typeof lookup(allMessages(locale), own) === "string" ? own : "admin.errors.field.required";
  return getI18n(locale).t(key, { field });
}

/**
 * The text of one zod issue of `kind`'s form field `name`, whose posted value was `value`: a blank value of
 * a field the form requires is "<Field> is required." (spaces only count as blank: the schema trims), else by
 * code: too long, a slug's pattern, an http(s) URL (SECURITY C58), a date; anything else "<Field> is not valid."
 */
export function issueText(
  locale: Locale,
  kind: ContentKind,
  name: string,
  issue: z.core.$ZodIssue,
  value: string,
  version?: Locale,
): string {
  const { t } = getI18n(locale);
  const field = fieldLabel(locale, kind, name, version);
  if (value.trim() === "" && issue.code !== "too_big") return requiredText(locale, kind, name, version);
  if (issue.message === HTTP_URL_MESSAGE) return t("admin.errors.httpUrl");
  if (issue.code === "too_big") return t("admin.errors.field.tooLong", { field, max: Number(issue.maximum) });
  if (issue.code === "too_small") return requiredText(locale, kind, name, version);
  if (issue.code === "invalid_format" && name === "slug") return t("admin.errors.field.slug", { field });
  if (issue.code === "invalid_union") return t("admin.errors.date");
  return t("admin.errors.field.invalid", { field });
}

/** Message keys of `ImageRejectedError`'s texts (lib/images/upload.ts), matched by their start. */
const IMAGE_KEYS: [RegExp, string][] = [
  [/^Only JPEG, PNG, GIF or WebP/, "admin.errors.image.type"],
  [/^The image file is empty/, "admin.errors.image.empty"],
  [/^The image is larger than (\d+) MB/, "admin.errors.image.bytes"],
  [/^The image has more than (\d+) megapixels/, "admin.errors.image.pixels"],
  [/^The image could not be read/, "admin.errors.image.damaged"],
];

/** An image refusal (`ImageRejectedError`'s message) in `locale`; an unknown one as it is. */
export function imageRefusalText(locale: Locale, message: string): string {
  for (const [pattern, key] of IMAGE_KEYS) {
    const match = pattern.exec(message);
    if (match) return getI18n(locale).t(key, { max: match[1] });
  }
  return message;
}

/**
 * A failed save's message (`submissionErrorMessage`, spec §8) in `locale`, and the field it belongs to: a
 * taken slug is the slug field's ("Another item already uses this slug…"), the others the form's.
 */
export function submissionText(locale: Locale, message: string): { field: "slug" | null; text: string } {
  const { t } = getI18n(locale);
  if (message === SLUG_TAKEN_MESSAGE) return { field: "slug", text: t("admin.errors.field.slugTaken") };
  if (message === AUTHORIZATION_ERROR) return { field: null, text: t("forms.errors.authorization") };
  if (message === SUBMISSION_ERROR) return { field: null, text: t("forms.errors.submission") };
  return { field: null, text: message };
}

/**
 * A translation violation (`lib/translate/checks.ts`) in `locale`: `admin.languages.violations.<code>` with its
 * values, a glossary term's field named by its label (SECURITY C74: what the AI changed is shown to the editor in
 * the admin's language).
 */
export function violationText(locale: Locale, kind: ContentKind, violation: TranslationViolation): string {
  const field = violation.field ? fieldLabel(locale, kind, violation.field) : "";
  // Each value isolated (issue #29 item 7): a Latin term in an Arabic sentence keeps the sentence's order.
  const values = isolateValues({ ...violation.values, field });
  return getI18n(locale).t(`admin.languages.violations.${violation.code}`, values);
}

/**
 * A content rule a draft breaks (`checkHtmlRules`, spec §5) in `locale` (issue #29 item 7):
 * `admin.ai.rules.<rule>` with the violation's values, each isolated (`isolateValues`); `studio` keeps the
 * English `message`. E.g. "Paragraph 1 has 8 sentences; split it (at most 5)." / "الفقرة 1 فيها 8 جمل…".
 */
export function ruleText(locale: Locale, violation: RuleViolation): string {
  return getI18n(locale).t(`admin.ai.rules.${violation.rule}`, isolateValues(violation.values));
}
