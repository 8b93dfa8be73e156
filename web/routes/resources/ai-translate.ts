import { data } from "react-router";
import { AiDraftBoundsError } from "../../../lib/ai/draft.ts";
import { AiNotConfiguredError, aiSettings } from "../../../lib/ai/gemini.ts";
import { translateFields } from "../../../lib/ai/translate.ts";
import { loadConfig } from "../../../lib/config.ts";
import { normalizeBodyAsync } from "../../../lib/html/body.ts";
import { HtmlBoundsError } from "../../../lib/html/bounds.ts";
import { CONTENT_MODEL, isContentKind, isContentLocale, translatedFields } from "../../../model/model.ts";
import { getI18n } from "../../i18n/catalog.server.ts";
import { bodyBoundsMessage, takeAiAllowance } from "../../data/admin.server.ts";
import { violationText } from "../../data/admin-errors.server.ts";
import { siteGlossary } from "../../data/admin-versions.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import type { Route } from "./+types/ai-translate";

/**
 * "Translate with AI" of the admin forms (issue #15 item 6): POST `kind` (a kind of the table), `from`, `to` (locales of the table)
 * and the source version's translated fields (as typed) → `{fields, violations, model}`, drafted on the server
 * with the rules of `studio translate` (`translateFields`: the translated fields only, never the slug; the
 * body's block structure, its link and image targets (SECURITY C74) and `content/glossary.yaml` checked, one
 * repair asked). A signed-in user only, counted in the AI allowance (SECURITY C43: 429); errors and violations
 * in the admin's language.
 */
export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireUser(request);
  const locale = preferredLocale(request);
  const { t } = getI18n(locale);
  const form = await request.formData();
  const kind = form.get("kind");
  const from = form.get("from");
  const to = form.get("to");
  if (!isContentKind(kind) || !isContentLocale(from) || !isContentLocale(to) || from === to) {
    return data({ error: t("admin.errors.badRequest") }, { status: 400 });
  }
  const names = translatedFields(kind);
  const source = Object.fromEntries(names.map((n) => [n, String(form.get(n) ?? "").trim()]));
  if (names.some((n) => !source[n])) {
    const language = t(`admin.languages.inSentence.${from}`);
    return data({ error: t("admin.languages.sourceRequired", { from: language }) }, { status: 400 });
  }
  const body = CONTENT_MODEL[kind].body;
  try {
    // Translated as stored: the body sanitized, as `studio translate` reads a file's.
    source[body] = await normalizeBodyAsync(source[body]!);
  } catch (error) {
    if (!(error instanceof HtmlBoundsError)) throw error;
    return data({ error: bodyBoundsMessage(locale, error.violation) }, { status: 400 });
  }
  if (!(await takeAiAllowance(user.id))) {
    return data(
      { error: getI18n(preferredLocale(request)).t("admin.errors.aiLimit") },
      { status: 429, headers: { "Retry-After": "3600" } },
    );
  }
  try {
    const glossary = await siteGlossary();
    const result = await translateFields(aiSettings(loadConfig()), { kind, from, to, source, glossary });
    const violations = result.violations.map((v) => violationText(locale, kind, v));
    return { fields: result.fields, violations, model: result.model };
  } catch (error) {
    if (error instanceof AiNotConfiguredError) return data({ error: t("admin.ai.notSetUp") }, { status: 503 });
    if (error instanceof AiDraftBoundsError) {
      const reason = bodyBoundsMessage(locale, error.violation);
      return data({ error: t("admin.errors.body.aiDraft", { reason }) }, { status: 502 });
    }
    console.error("AI translation failed:", (error as Error).message);
    return data({ error: t("admin.languages.translateFailed") }, { status: 503 });
  }
}
