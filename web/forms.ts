/**
 * The visitor forms (spec §4, §5): their fields and one validation used both in the browser (before
 * submitting) and by the route actions, so the server's rules mirror the client's exactly. The rules come
 * from the content model (`communityApplicationSchema`, `contactMessageSchema`).
 */
import type { z } from "zod";
import {
  communityApplicationSchema,
  contactMessageSchema,
  type CommunityApplication,
  type ContactMessage,
} from "../schemas/content.ts";

export type FormKind = "community" | "contact";

export const FORM_FIELDS = {
  community: ["name", "email", "interest"],
  contact: ["name", "email", "message"],
} as const satisfies Record<FormKind, readonly string[]>;

export type FieldName<K extends FormKind> = (typeof FORM_FIELDS)[K][number];

/** Why a field was refused; `max` is the length limit for `tooLong`. */
export interface FieldIssue {
  code: "required" | "email" | "tooLong";
  max?: number;
}

/**
 * What an action answers and the form shows: success, or the error kind (spec §8; `tooMany` when the client
 * IP has used up its submissions, SECURITY C57) with the field issues and the values sent (so a page rendered
 * without JavaScript can refill the form).
 */
export type FormResult =
  | { ok: true }
  | {
      ok: false;
      error: "invalid" | "authorization" | "submission" | "tooMany";
      fieldErrors?: Record<string, FieldIssue>;
      values?: Record<string, string>;
    };

export type Validated<K extends FormKind> =
  | { ok: true; data: K extends "community" ? CommunityApplication : ContactMessage }
  | { ok: false; fieldErrors: Record<string, FieldIssue> };

function issuesOf(error: z.ZodError, values: Record<string, string>, rename: Record<string, string>) {
  const fieldErrors: Record<string, FieldIssue> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "");
    const field = rename[key] ?? key;
    if (fieldErrors[field]) continue;
    if (!values[field]?.trim()) fieldErrors[field] = { code: "required" };
    else if (issue.code === "too_big") fieldErrors[field] = { code: "tooLong", max: Number(issue.maximum) };
    else if (field === "email") fieldErrors[field] = { code: "email" };
    else fieldErrors[field] = { code: "required" };
  }
  return fieldErrors;
}

/**
 * Validates the values of a form (`interest` of the community form becomes `projectIdea`, spec §3).
 * Text is trimmed; the e-mail must be a valid address.
 */
export function validateForm<K extends FormKind>(kind: K, values: Record<string, string>): Validated<K> {
  if (kind === "community") {
    const parsed = communityApplicationSchema.safeParse({
      name: values.name ?? "",
      email: (values.email ?? "").trim(),
      projectIdea: values.interest ?? "",
    });
    if (parsed.success) return { ok: true, data: parsed.data } as Validated<K>;
    return { ok: false, fieldErrors: issuesOf(parsed.error, values, { projectIdea: "interest" }) };
  }
  const parsed = contactMessageSchema.safeParse({
    name: values.name ?? "",
    email: (values.email ?? "").trim(),
    message: values.message ?? "",
  });
  if (parsed.success) return { ok: true, data: parsed.data } as Validated<K>;
  return { ok: false, fieldErrors: issuesOf(parsed.error, values, {}) };
}

/** The form's own string fields from submitted form data (other entries are ignored). */
export function formValues(kind: FormKind, data: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of FORM_FIELDS[kind]) {
    const value = data.get(field);
    values[field] = typeof value === "string" ? value : "";
  }
  return values;
}
