import type { SyntheticEvent } from "react";
import { useTranslation } from "../../hooks.ts";
import { CONTENT_LOCALES, translatedFields, type ContentKind, type ContentLocale } from "../../../model/model.ts";

/**
 * The language version a form error key belongs to (issue #29 item 8): `ar.title` → `ar`; a translated
 * field's bare name → the route's version; a shared field (slug, image, URL) → null.
 */
export function errorLocaleOf(kind: ContentKind, key: string, routeLocale: ContentLocale): ContentLocale | null {
  const [head, name] = key.split(".", 2) as [string, string | undefined];
  if (name !== undefined) return (CONTENT_LOCALES as readonly string[]).includes(head) ? (head as ContentLocale) : null;
  return translatedFields(kind).includes(key) ? routeLocale : null;
}

/**
 * The summary at the top of a refused save (issue #29 item 8; GOV.UK "Error summary" pattern): "Not saved:
 * fix the fields below.", then the errors grouped by language version ("In the Arabic version:") and the
 * shared fields, in the admin's language. `role="alert"`: it is announced while the focus goes to the first
 * invalid field (`VersionTabs`). Nothing without errors.
 */
export function ErrorSummary(props: {
  kind: ContentKind;
  errors: Partial<Record<string, string>>;
  routeLocale: ContentLocale;
}) {
  const { t } = useTranslation();
  const keys = Object.keys(props.errors).filter((k) => props.errors[k]);
  if (keys.length === 0) return null;
  const groups = [...CONTENT_LOCALES, null].flatMap((locale) => {
    const messages = keys.filter((k) => errorLocaleOf(props.kind, k, props.routeLocale) === locale);
    if (messages.length === 0) return [];
    const title = locale
      ? t("admin.formWords.summaryIn", { language: t(`admin.languages.inSentence.${locale}`) })
      : t("admin.formWords.summaryShared");
    return [{ key: locale ?? "shared", title, messages: messages.map((k) => props.errors[k]!) }];
  });
  return (
    <div
      role="alert"
      data-error-summary
      className="mt-6 rounded-lg border border-red-500/50 bg-red-500/10 p-3 text-sm text-red-200"
    >
      <p className="font-semibold">{t("admin.formWords.summary")}</p>
      {groups.map((group) => (
        <div key={group.key} className="mt-2">
          <p>{group.title}</p>
          <ul className="list-disc ps-5">
            {group.messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

/**
 * The admin forms are `noValidate` (the server checks every field and says so in the admin's language,
 * issue #29 item 7), but a field's own refusal set with `setCustomValidity` (an image that is not one, by its
 * bytes) still stops the submission: the submit event is cancelled and that field focused.
 * @returns whether the form may be submitted.
 */
export function keepCustomValidity(event: SyntheticEvent<HTMLFormElement>): boolean {
  const refused = [...event.currentTarget.elements].find(
    (el): el is HTMLInputElement => el instanceof HTMLInputElement && el.validity.customError,
  );
  if (!refused) return true;
  event.preventDefault();
  refused.focus();
  return false;
}
