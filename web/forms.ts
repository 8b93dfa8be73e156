/**
 * The visitor forms (spec §4, §5): their fields and one validation used both in the browser (before
 * submitting) and by the route actions, so the server's rules mirror the client's exactly. The rules come
 * from the content model (`communityApplicationSchema`, `contactMessageSchema`).
 */
import type { z } from "zod";
import {
  communityApplicationSchema,
  contactMessageSchema,
  submissionForm,
  type CommunityApplication,
  type ContactMessage,
} from "../model/content.ts";
import { type SUBMISSION_MODEL, fieldsOf, type KindSpec } from "../model/model.ts";

export type FormKind = "community" | "contact";

/** The stored kind and its schema behind each visitor form. */
const FORMS = {
  community: {
    model: "communityApplication",
    spec: submissionForm("communityApplication"),
    schema: communityApplicationSchema,
  },
  contact: { model: "contactMessage", spec: submissionForm("contactMessage"), schema: contactMessageSchema },
} as const satisfies Record<FormKind, { model: keyof typeof SUBMISSION_MODEL; spec: KindSpec; schema: z.ZodType }>;

/** The content model's name of the kind a form stores (`SUBMISSION_MODEL`). */
export function submissionKindOf(kind: FormKind): keyof typeof SUBMISSION_MODEL {
  return FORMS[kind].model;
}

/** `[input name, field name]` of each field of a form, in order (`interest` posts `projectIdea`, spec §3). */
function inputsOf(kind: FormKind): [string, string][] {
  return fieldsOf(FORMS[kind].spec).map(([name, field]) => [field.input ?? name, name]);
}

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

function issuesOf(error: z.ZodError, values: Record<string, string>, inputs: [string, string][]) {
  const inputOf = new Map(inputs.map(([input, name]) => [name, input]));
  const fieldErrors: Record<string, FieldIssue> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "");
    const field = inputOf.get(key) ?? key;
    if (fieldErrors[field]) continue;
    if (!values[field]?.trim()) fieldErrors[field] = { code: "required" };
    else if (issue.code === "too_big") fieldErrors[field] = { code: "tooLong", max: Number(issue.maximum) };
    else if (field === "email") fieldErrors[field] = { code: "email" };
    else fieldErrors[field] = { code: "required" };
  }
  return fieldErrors;
}

/**
 * Validates the values of a form against its kind in the content model (`SUBMISSION_MODEL`; the community
 * form's `interest` is stored as `projectIdea`, spec §3). Text is trimmed (by the schema); so is the e-mail
 * before its format is checked. Field errors are keyed by input name.
 */
export function validateForm<K extends FormKind>(kind: K, values: Record<string, string>): Validated<K> {
  const inputs = inputsOf(kind);
  const { spec, schema } = FORMS[kind];
  const data = Object.fromEntries(
    inputs.map(([input, name]) => {
      const value = values[input] ?? "";
      return [name, spec.fields[name as keyof typeof spec.fields]?.type === "email" ? value.trim() : value];
    }),
  );
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, data: parsed.data } as Validated<K>;
  return { ok: false, fieldErrors: issuesOf(parsed.error, values, inputs) };
}

/** The form's own string fields from submitted form data, by input name (other entries are ignored). */
export function formValues(kind: FormKind, data: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [input] of inputsOf(kind)) {
    const value = data.get(input);
    values[input] = typeof value === "string" ? value : "";
  }
  return values;
}
