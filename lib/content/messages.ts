/**
 * Validation messages for content files in the user's words (issue 14 item 5): each names the field (the
 * caller prefixes it), the expected form and an example, instead of zod's raw wording.
 */
import type { z } from "zod";
import { FrontMatterError } from "./front-matter.ts";
import type { ContentKind } from "../../model/content.ts";
import { CONTENT_MODEL, fieldsOf, type FieldType } from "../../model/model.ts";

/** A valid value of each front-matter field, as a user would write it (the content model's examples). */
const EXAMPLES: Record<string, string> = {
  ...Object.fromEntries(
    Object.values(CONTENT_MODEL).flatMap((kind) =>
      fieldsOf(kind).flatMap(([name, field]) => (field.example ? [[field.input ?? name, field.example]] : [])),
    ),
  ),
  draft: "true",
  publishAt: "2026-03-14T09:00:00+00:00",
};

/** The expected form of a field type whose zod message does not say it. */
const EXPECTED_BY_TYPE: Partial<Record<FieldType, string>> = {
  date: "a date like 2026-03-14 (or a date-time like 2026-03-14T09:30:00+00:00)",
};

/** The expected form of fields whose zod message does not say it: the model's by type, and studio's own keys. */
const EXPECTED: Record<string, string> = {
  ...Object.fromEntries(
    Object.values(CONTENT_MODEL).flatMap((kind) =>
      fieldsOf(kind).flatMap(([name, field]) => {
        const expected = EXPECTED_BY_TYPE[field.type];
        return expected ? [[field.input ?? name, expected]] : [];
      }),
    ),
  ),
  draft: "true or false",
  publishAt: "a date like 2026-03-14 (or a date-time like 2026-03-14T09:30:00+00:00)",
  generated: "the provenance record studio generate writes (model, date, topic)",
};

/** The front-matter fields of a kind, for "unknown field" messages: its fields as files name them, and `draft`. */
const fieldsList = (kind: ContentKind) =>
  [
    ...fieldsOf(CONTENT_MODEL[kind])
      .filter(([, field]) => field.type !== "owner" && field.type !== "html")
      .map(([name, field]) => field.input ?? name),
    "draft",
    "publishAt",
  ].join(", ");

const example = (field: string) => (EXAMPLES[field] ? `, e.g. ${field}: ${EXAMPLES[field]}` : "");

/**
 * The message for one zod issue of a front matter (`data` is the parsed front matter, to tell a missing
 * field from a wrong one). Messages written in the schema (`is required`, `must be at most 200 characters`)
 * are kept, with an example added.
 */
export function issueMessage(kind: ContentKind, issue: z.core.$ZodIssue, data: unknown): string {
  const field = issue.path.map(String).join(".");
  const top = String(issue.path[0] ?? "");
  if (issue.code === "unrecognized_keys") {
    return `unknown field(s) ${issue.keys.join(", ")}: the fields of a ${kind} are ${fieldsList(kind)} (check the spelling, or remove them)`;
  }
  const present = data !== null && typeof data === "object" && (data as Record<string, unknown>)[top] !== undefined;
  if (!present && issue.path.length === 1) return `is missing; add it${example(field) || ` (${field}: …)`}`;
  if (
    EXPECTED[top] &&
    (issue.code === "invalid_type" || issue.code === "invalid_union" || issue.code === "invalid_format")
  ) {
    return `expected ${EXPECTED[top]}${example(top)}`;
  }
  if (issue.code === "invalid_type") {
    return `expected ${issue.expected === "string" ? "text" : issue.expected}${example(field)} (quote a value that YAML reads as a number, date or list)`;
  }
  if (issue.message.startsWith("Invalid")) return `is not valid${example(field)}`;
  return /e\.g\.|such as/.test(issue.message) ? issue.message : `${issue.message}${example(field)}`;
}

/** The message for a YAML front matter that does not parse: where, why, and how to fix it (no trailing colon). */
export function yamlMessage(error: unknown): string {
  if (error instanceof FrontMatterError && error.fence) return error.message;
  const line = error instanceof FrontMatterError ? error.line : undefined;
  const where = line ? ` at line ${line}` : "";
  const reason = (String((error as Error | undefined)?.message ?? error).split("\n")[0] ?? "").replace(/[:\s]+$/, "");
  return (
    `is not valid YAML${where} (${reason}). Write one "field: value" per line between the two --- lines, ` +
    `and quote a value that holds ": " or starts with [ or {, e.g. title: "Agencies: a primer"`
  );
}
