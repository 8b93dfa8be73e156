import { getI18n } from "../../i18n/catalog.server.ts";
import { data } from "react-router";
import { AiNotConfiguredError, aiSettings } from "../../../lib/ai/gemini.ts";
import { generateImage, TitleRequiredError } from "../../../lib/ai/image.ts";
import { loadConfig } from "../../../lib/config.ts";
import { takeAiAllowance } from "../../data/admin.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { isContentKind } from "../../../model/model.ts";
import type { Route } from "./+types/ai-image";

/**
 * AI featured image (spec §7): POST `title` and `slug` → `{data: base64 JPEG, fileName}`; the form puts it in
 * its image input, so it is uploaded and checked like a chosen file. Signed-in users only, hourly limit shared
 * with drafts.
 */
export async function action({ request }: Route.ActionArgs) {
  const { user } = await requireUser(request);
  const form = await request.formData();
  const kind = form.get("kind");
  if (!isContentKind(kind)) {
    return data({ error: getI18n(preferredLocale(request)).t("admin.errors.badRequest") }, { status: 400 });
  }
  if (!(await takeAiAllowance(user.id))) {
    return data(
      { error: getI18n(preferredLocale(request)).t("admin.errors.aiLimit") },
      { status: 429, headers: { "Retry-After": "3600" } },
    );
  }
  try {
    const image = await generateImage(aiSettings(loadConfig()), {
      kind,
      title: String(form.get("title") ?? ""),
      slug: String(form.get("slug") ?? ""),
    });
    return { data: image.bytes.toString("base64"), fileName: image.fileName };
  } catch (error) {
    // In the admin's language (issue #29 item 7), as the failure below.
    const { t } = getI18n(preferredLocale(request));
    if (error instanceof TitleRequiredError) return data({ error: t("admin.ai.titleRequired") }, { status: 400 });
    if (error instanceof AiNotConfiguredError) return data({ error: t("admin.ai.notSetUp") }, { status: 503 });
    console.error("AI image failed:", (error as Error).message);
    return data({ error: getI18n(preferredLocale(request)).t("admin.ai.failedImage") }, { status: 503 });
  }
}
