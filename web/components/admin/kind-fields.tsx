import { useTranslation } from "../../hooks.ts";
import { CONTENT_MODEL, inputFields, type ContentKind, type FieldSpec } from "../../../model/model.ts";
import { Field, TextArea } from "./fields.tsx";

/** A field longer than this is a textarea in the admin's forms; shorter ones, dates and URLs are inputs. */
const SHORT_TEXT = 256;

/** Whether the admin's forms show `field` as a one-line input (short text, a URL, a date). */
export function isShortField(field: FieldSpec): boolean {
  return field.type !== "text" || (field.max ?? 0) <= SHORT_TEXT;
}

/**
 * The text fields of `kind` from its description (`inputFields`), but its title, as the admin's form shows
 * them: the `short` ones (inputs: text of at most 256 characters, URLs, dates) or the long ones (textareas
 * of 3 rows). Labels are `admin.<path>.<field>`; every field is required unless `optional` (or, for a form,
 * `draftOptional` is not: a published item needs it). With `translated: false`, only the fields both language
 * versions share (dates, URLs); the translated ones are in the language tabs (`VersionTabs`).
 */
export function KindFields(props: {
  kind: ContentKind;
  size: "short" | "long";
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
  set: (name: string) => (value: string) => void;
  translated?: boolean;
}) {
  const { t } = useTranslation();
  const spec = CONTENT_MODEL[props.kind];
  const fields = inputFields(props.kind).filter(
    ([name, field]) =>
      name !== spec.title &&
      isShortField(field) === (props.size === "short") &&
      (props.translated !== false || !field.translated),
  );
  return (
    <>
      {fields.map(([name, field]) =>
        props.size === "long" ? (
          <TextArea
            key={name}
            name={name}
            label={t(`admin.${spec.adminPath}.${name}`)}
            rows={3}
            required={!field.optional}
            value={props.values[name] ?? ""}
            error={props.errors[name]}
            onChange={props.set(name)}
          />
        ) : (
          <Field
            key={name}
            name={name}
            type={field.type === "date" ? "date" : field.type === "url" ? "url" : "text"}
            label={t(`admin.${spec.adminPath}.${name}`)}
            required={!field.optional}
            ltr={field.type === "date" || field.type === "url"}
            value={props.values[name]}
            error={props.errors[name]}
            onChange={props.set(name)}
          />
        ),
      )}
    </>
  );
}
