/**
 * The visitor forms' honeypot (SECURITY C57): a field no person sees or fills (visually hidden, not
 * focusable, `aria-hidden`, `autocomplete="off"`); a submission with it filled is a bot's, answered like a
 * success and never stored. A module of its own so the form component can name it without loading the form
 * rules (`web/forms.ts`, the zod schemas) with the page.
 */
export const HONEYPOT_FIELD = "website";
