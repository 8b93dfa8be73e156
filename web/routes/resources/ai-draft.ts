import { data } from "react-router";
import { AiDraftBoundsError, draftItem, TopicRequiredError } from "../../../lib/ai/draft.ts";
import { AiNotConfiguredError, aiSettings } from "../../../lib/ai/gemini.ts";
import { loadConfig } from "../../../lib/config.ts";
import { getI18n } from "../../i18n/catalog.server.ts";
import { bodyBoundsMessage, takeAiAllowance } from "../../data/admin.server.ts";
import { ruleText } from "../../data/admin-errors.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { DEFAULT_CONTENT_LOCALE, isContentLocale } from "../../../model/model.ts";
import { contentKindSchema } from "../../../model/content.ts";
import type { Route } from "./+types/ai-draft";

/** `admin.ai.<name><Kind>`: the kind's own sentence ("…to generate details." for a venture, spec §8). */
const kindKey = (name: string, kind: string) => `admin.ai.${name}${kind.charAt(0).toUpperCase()}${kind.slice(1)}`;

/**
 * AI drafts for the admin forms (issue #6; spec §5, §7, §8): POST `kind` (a kind of the table: `z.enum`, an
 * unknown one is a 400), `topic` and `locale` (the language version to draft, issue #29 item 6: the tab the
 * editor is on; absent: the default locale; not a locale of the table: 400) → `{fields, violations}`; a
 * signed-in user only, at most 20 an hour (SECURITY C43: 429), the key stays here. Every message, the
 * failures ("Failed to generate content…", spec §8) and the content rules the draft breaks, is in the admin's
 * language (issue #29 item 7; `ruleText`).
 */
export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireUser(request);
  const adminLocale = preferredLocale(request);
  const { t } = getI18n(adminLocale);
  const form = await request.formData();
  const parsed = contentKindSchema.safeParse(form.get("kind"));
  const topic = String(form.get("topic") ?? "");
  const locale = form.get("locale") ?? DEFAULT_CONTENT_LOCALE;
  if (!parsed.success || !isContentLocale(locale)) {
    return data({ error: t("admin.errors.badRequest") }, { status: 400 });
  }
  const kind = parsed.data;
  if (!topic.trim()) return data({ error: t(kindKey("topicRequired", kind)) }, { status: 400 });
  if (!(await takeAiAllowance(user.id))) {
    return data({ error: t("admin.errors.aiLimit") }, { status: 429, headers: { "Retry-After": "3600" } });
  }
  try {
    const draft = await draftItem(aiSettings(loadConfig()), kind, topic, { locale });
    const violations = draft.violations.map((v) => ruleText(adminLocale, v));
    return { fields: draft.fields as Record<string, string>, violations, locale };
  } catch (error) {
    if (error instanceof TopicRequiredError) return data({ error: t(kindKey("topicRequired", kind)) }, { status: 400 });
    if (error instanceof AiNotConfiguredError) return data({ error: t("admin.ai.notSetUp") }, { status: 503 });
    if (error instanceof AiDraftBoundsError) {
      // SECURITY C53: the model's body breaks a bound; say which, in the admin's language.
      const reason = bodyBoundsMessage(adminLocale, error.violation);
      return data({ error: t("admin.errors.body.aiDraft", { reason }) }, { status: 502 });
    }
    console.error("AI draft failed:", (error as Error).message);
    return data({ error: t(kindKey("failed", kind)) }, { status: 503 });
  }
}
