/**
 * Route actions of the visitor forms (spec §4, §5, §8): validate with the same rules as the browser, limit
 * submissions per client IP and drop bots' (SECURITY C57), store with the API key, answer a `FormResult`
 * (400 for invalid input, 429 over the limit, 500 when storing failed).
 */
import { data } from "react-router";
import { createSubmission } from "../../lib/appwrite/submissions.ts";
import { sendSubmissionMail } from "../../lib/inbox/mail.ts";
import { TEXT_FIELD } from "../../model/inbox.ts";
import { FormRateLimiter } from "../../server/http/form-limits.ts";
import { formValues, submissionKindOf, validateForm, type FormKind, type FormResult } from "../forms.ts";
import { HONEYPOT_FIELD } from "../honeypot.ts";
import { getApiKeyServices, getLimitLog } from "./appwrite.server.ts";
import { siteOrigin } from "./origin.server.ts";
import { clientIp } from "./session.server.ts";

let limiter: FormRateLimiter | undefined;
/** One allowance for both forms: 5 submissions a minute and 50 a day per client IP, shared by every site process. */
const formLimiter = () => (limiter ??= new FormRateLimiter(undefined, getLimitLog()));

/**
 * Handles a POST of the `kind` form; `context` is the request's load context (its `clientIp`, never a header
 * the client controls unless `TRUST_PROXY`). In order: invalid input answers 400 (not counted); a valid
 * submission takes one from the client IP's allowance, and over it answers 429 with `Retry-After` and the
 * `tooMany` error (the form's error state, with the values to refill); a filled honeypot answers like a success
 * and stores nothing; then the submission is stored. A backend refusal whose message mentions "authorized"
 * becomes the spec's authorization error; any other failure the generic submission error (details go to the
 * log only). A stored submission is in the language of the page (`/<locale>/…`), and its mail (the team's
 * notice, the sender's confirmation; issue #31 item 3) is sent after the answer is decided, never awaited:
 * a mail failure is logged and shown in the inbox, never to the visitor, and never loses the submission.
 */
export async function handleFormPost(request: Request, kind: FormKind, context?: unknown) {
  const form = await request.formData();
  const values = formValues(kind, form);
  const validated = validateForm(kind, values);
  if (!validated.ok) {
    return data<FormResult>({ ok: false, error: "invalid", fieldErrors: validated.fieldErrors, values }, 400);
  }
  let decision;
  try {
    decision = await formLimiter().take(clientIp(context));
  } catch (error) {
    // The limit log lives in Appwrite: if it cannot be read, the submission could not be stored either.
    console.error(`[forms] checking the ${kind} form's limit failed:`, (error as Error).message);
    return data<FormResult>({ ok: false, error: "submission", values }, 500);
  }
  if (!decision.allowed) {
    return data<FormResult>(
      { ok: false, error: "tooMany", values },
      { status: 429, headers: { "Retry-After": String(decision.retryAfterSeconds) } },
    );
  }
  const honeypot = form.get(HONEYPOT_FIELD);
  if (honeypot !== null && honeypot !== "") return data<FormResult>({ ok: true }, 200);
  let result;
  try {
    const services = getApiKeyServices();
    result = await createSubmission(services, submissionKindOf(kind), validated.data, pageLocale(request));
  } catch (error) {
    result = { success: false as const, error: error instanceof Error ? error : new Error(String(error)) };
  }
  if (result.success) {
    mailInBackground(request, kind, result, validated.data);
    return data<FormResult>({ ok: true }, 200);
  }
  console.error(`[forms] storing a ${kind} submission failed:`, result.error.message);
  const error = /authorized/i.test(result.error.message) ? "authorization" : "submission";
  return data<FormResult>({ ok: false, error, values }, 500);
}

/** The locale segment of the form page's path (`/ar/contact` → `ar`). */
function pageLocale(request: Request): string {
  return new URL(request.url).pathname.split("/")[1] ?? "";
}

/** Starts the mail of a stored submission without waiting for it; failures go to the log only. */
function mailInBackground(
  request: Request,
  kind: FormKind,
  stored: { id: string; createdAt: string },
  fields: Readonly<Record<string, unknown>>,
): void {
  const model = submissionKindOf(kind);
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : "");
  const submission = {
    kind: model,
    id: stored.id,
    createdAt: stored.createdAt,
    locale: pageLocale(request) === "ar" ? "ar" : "en",
    name: text("name"),
    email: text("email"),
    text: text(TEXT_FIELD[model]),
  };
  const link = `${siteOrigin(request)}/admin/inbox/${model}/${stored.id}`;
  void sendSubmissionMail(getApiKeyServices(), submission, link)
    .then((errors) => {
      for (const error of errors) console.error(`[inbox] mail of ${model} ${stored.id} failed:`, error.message);
    })
    .catch((error: unknown) => console.error(`[inbox] mail of ${model} ${stored.id} failed:`, error));
}

/**
 * The headers of a form page's document response: its parent's, plus the action's (`Retry-After` of a 429),
 * so a browser without JavaScript gets them too.
 */
export function formPageHeaders({ parentHeaders, actionHeaders }: { parentHeaders: Headers; actionHeaders: Headers }) {
  const merged = new Headers(parentHeaders);
  actionHeaders.forEach((value, key) => merged.set(key, value));
  return merged;
}
