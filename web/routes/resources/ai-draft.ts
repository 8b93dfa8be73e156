import { data } from "react-router";
import { AiDraftBoundsError, draftItem, TopicRequiredError } from "../../../lib/ai/draft.ts";
import { AiNotConfiguredError, aiSettings } from "../../../lib/ai/gemini.ts";
import { loadConfig } from "../../../lib/config.ts";
import { getI18n } from "../../i18n/catalog.server.ts";
import { bodyBoundsMessage, takeAiAllowance } from "../../data/admin.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { CONTENT_MODEL, type ContentKindSpec } from "../../../model/model.ts";
import { contentKindSchema } from "../../../model/content.ts";
import type { Route } from "./+types/ai-draft";

/** What a failed draft says (spec §8), by what the kind's drafting fills in (`draftNoun`). */
const FAILED: Record<ContentKindSpec["draftNoun"], string> = {
  details:
    "Failed to generate details. The model may be unavailable or there was an issue with the response. Please try again later.",
  content: "Failed to generate content. The model may be unavailable. Please try again later.",
};

/**
 * AI drafts for the admin forms (issue #6; spec §5, §7, §8): POST `kind` (a kind of the table: `z.enum`, an
 * unknown one is a 400) and `topic` →
 * `{fields, violations}`; a signed-in user only, at most 20 an hour (SECURITY C43: 429), the key stays here.
 */
export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireUser(request);
  const form = await request.formData();
  const parsed = contentKindSchema.safeParse(form.get("kind"));
  const topic = String(form.get("topic") ?? "");
  if (!parsed.success) {
    return data({ error: getI18n(preferredLocale(request)).t("admin.errors.badRequest") }, { status: 400 });
  }
  if (!(await takeAiAllowance(user.id))) {
    return data(
      { error: getI18n(preferredLocale(request)).t("admin.errors.aiLimit") },
      { status: 429, headers: { "Retry-After": "3600" } },
    );
  }
  const kind = parsed.data;
  try {
    const draft = await draftItem(aiSettings(loadConfig()), kind, topic);
    return { fields: draft.fields as Record<string, string>, violations: draft.violations.map((v) => v.message) };
  } catch (error) {
    if (error instanceof TopicRequiredError) return data({ error: error.message }, { status: 400 });
    if (error instanceof AiNotConfiguredError) return data({ error: error.message }, { status: 503 });
    if (error instanceof AiDraftBoundsError) {
      // SECURITY C53: the model's body breaks a bound; say which, in the admin's language.
      const locale = preferredLocale(request);
      const reason = bodyBoundsMessage(locale, error.violation);
      return data({ error: getI18n(locale).t("admin.errors.body.aiDraft", { reason }) }, { status: 502 });
    }
    console.error("AI draft failed:", (error as Error).message);
    return data({ error: FAILED[CONTENT_MODEL[kind].draftNoun] }, { status: 503 });
  }
}
