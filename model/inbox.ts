/**
 * The inbox's rules (issue #31): the states a submission moves through and the kinds it lists. Plain data, so
 * the browser may import it.
 */
import { SUBMISSION_MODEL } from "./site-models.ts";

/** A submission's states in the inbox, in the order its filter lists them (issue #31 item 1). */
export const INBOX_STATES = ["new", "read", "replied", "archived", "spam"] as const;

/** One of `INBOX_STATES`. */
export type InboxState = (typeof INBOX_STATES)[number];

/** Whether `value` names an inbox state (refuse anything else where a state comes from input). */
export function isInboxState(value: unknown): value is InboxState {
  return typeof value === "string" && (INBOX_STATES as readonly string[]).includes(value);
}

/** The state of a stored row: its `state`, or `new` for a row from before the inbox (no state yet). */
export function stateOf(row: { state?: unknown }): InboxState {
  return isInboxState(row.state) ? row.state : "new";
}

/** The kinds the inbox lists: the content model's names of the submission kinds. */
export const INBOX_KINDS = Object.keys(SUBMISSION_MODEL) as (keyof typeof SUBMISSION_MODEL)[];

/** One of `INBOX_KINDS`: `communityApplication` or `contactMessage`. */
export type InboxKind = keyof typeof SUBMISSION_MODEL;

/** Whether `value` names a submission kind. */
export function isInboxKind(value: unknown): value is InboxKind {
  return typeof value === "string" && (INBOX_KINDS as string[]).includes(value);
}

/** The field holding the text a visitor wrote, per kind (the inbox's "first line" and search). */
export const TEXT_FIELD: Record<InboxKind, "projectIdea" | "message"> = {
  communityApplication: "projectIdea",
  contactMessage: "message",
};

/** Retention (issue #31 item 2): the most days a retention setting may say (10 years); 0 or none = off. */
export const MAX_RETENTION_DAYS = 3650;
