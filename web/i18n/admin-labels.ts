/**
 * The message key of each admin form field's label, per kind (spec §2 form labels): the forms, the history
 * panel and the server's field errors ("Name is required") name a field by the same text.
 */
import { CONTENT_MODEL, type ContentKind } from "../../schemas/model.ts";

/** Labels whose key is not `admin.<adminPath>.<field>`. */
const LABELS: Record<ContentKind, Record<string, string>> = {
  venture: {
    name: "admin.ventures.name",
    websiteURL: "admin.ventures.website",
    caseStudy: "admin.ventures.caseStudy",
    logo: "admin.ventures.logo",
    publishAt: "admin.ventures.publishAt",
  },
  post: {
    title: "admin.blog.postTitle",
    content: "admin.blog.content",
    featuredImage: "admin.blog.featuredImage",
    publishAt: "admin.ventures.publishAt",
  },
};

/** The label key of `kind`'s field `name` (a model field, the image input or `publishAt`). */
export function fieldLabelKey(kind: ContentKind, name: string): string {
  return LABELS[kind][name] ?? `admin.${CONTENT_MODEL[kind].adminPath}.${name}`;
}
