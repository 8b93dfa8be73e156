/**
 * The message key of each admin form field's label, per kind (spec §2 form labels): the forms, the history
 * panel and the server's field errors ("Name is required") name a field by the same text.
 */
import { CONTENT_MODEL, type ContentKind, type ContentKindSpec } from "../../model/model.ts";

/** Labels of the lifecycle's fields, the same for every kind. */
const SHARED_LABELS: Readonly<Record<string, string>> = { publishAt: "admin.ventures.publishAt" };

/**
 * The label key of `kind`'s field `name` (a model field, the image input or `publishAt`): the kind's
 * `labelKeys` exception, a lifecycle field's shared key, else `admin.<adminPath>.<name>`.
 */
export function fieldLabelKey(kind: ContentKind, name: string): string {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  return spec.labelKeys?.[name] ?? SHARED_LABELS[name] ?? `admin.${spec.adminPath}.${name}`;
}
