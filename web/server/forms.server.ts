/**
 * Route actions of the visitor forms (spec §4, §5, §8): validate with the same rules as the browser, store
 * with the API key, answer a `FormResult` (400 for invalid input, 500 when storing failed).
 */
import { data } from "react-router";
import { createCommunityApplication, createContactMessage } from "../../lib/appwrite/submissions.ts";
import type { CommunityApplication, ContactMessage } from "../../schemas/content.ts";
import { formValues, validateForm, type FormKind, type FormResult } from "../forms.ts";
import { getApiKeyServices } from "./appwrite.server.ts";

/**
 * Handles a POST of the `kind` form. A backend refusal whose message mentions "authorized" becomes the
 * spec's authorization error; any other failure the generic submission error (details go to the log only).
 */
export async function handleFormPost(request: Request, kind: FormKind) {
  const values = formValues(kind, await request.formData());
  const validated = validateForm(kind, values);
  if (!validated.ok) {
    return data<FormResult>({ ok: false, error: "invalid", fieldErrors: validated.fieldErrors, values }, 400);
  }
  let result;
  try {
    const services = getApiKeyServices();
    result =
      kind === "community"
        ? await createCommunityApplication(services, validated.data as CommunityApplication)
        : await createContactMessage(services, validated.data as ContactMessage);
  } catch (error) {
    result = { success: false as const, error: error instanceof Error ? error : new Error(String(error)) };
  }
  if (result.success) return data<FormResult>({ ok: true }, 200);
  console.error(`[forms] storing a ${kind} submission failed:`, result.error.message);
  const error = /authorized/i.test(result.error.message) ? "authorization" : "submission";
  return data<FormResult>({ ok: false, error, values }, 500);
}
