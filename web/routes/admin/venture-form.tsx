import { useState } from "react";
import { useTranslation } from "../../hooks.ts";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { AiAssistant } from "../../components/admin/ai-assistant.tsx";
import { conflictOf, Field, FormFooter, ImagePicker, useItemFormValues } from "../../components/admin/fields.tsx";
import { VersionTabs } from "../../components/admin/version-tabs.tsx";
import { HistoryPanel } from "../../components/admin/history.tsx";
import { LifecyclePanel } from "../../components/admin/lifecycle.tsx";
import { RestoredNotice, unsavedKey, useUnsavedInput } from "../../components/admin/unsaved.tsx";
import { aiUnavailableMessage, loadFormValues, newFormValues } from "../../server/admin.server.ts";
import { saveItem } from "../../server/admin-save.server.ts";
import { preferredLocale, requireUser } from "../../server/session.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/venture-form";

/**
 * New venture, or edit one (spec §2: mode is edit when the route has an id); both language versions (issue #15
 * item 6).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { secret } = await requireUser(request);
  const current = params.id
    ? await loadFormValues(secret, "venture", params.id, preferredLocale(request))
    : await newFormValues(secret, "venture", {});
  return { current, aiUnavailable: aiUnavailableMessage(preferredLocale(request)) };
}

export async function action({ request, params }: Route.ActionArgs) {
  return saveItem(request, "venture", params.id);
}

export function meta({ params, matches }: Route.MetaArgs) {
  return adminTitle(matches, params.id ? "admin.ventures.edit" : "admin.ventures.new");
}

export default function VentureForm({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const location = useLocation();
  const initial = actionData?.values ?? loaderData.current.values ?? {};
  const { values, setValues, set, setTitle, setSlug, applyDraft } = useItemFormValues(initial, "name", "venture");
  // Typed input survives reloads, navigation and an expired session (issue #16 item 5).
  const unsaved = useUnsavedInput(unsavedKey("venture", params.id), loaderData.current.values ?? {}, values, setValues);
  const [generating, setGenerating] = useState(false);
  const editing = Boolean(params.id);
  const saving = navigation.state === "submitting";
  const errors = actionData?.errors ?? {};

  return (
    <div className="max-w-3xl">
      <Link to="/admin/ventures" className="text-sm text-mist hover:text-gold">
        <span aria-hidden className="inline-block rtl:-scale-x-100">
          ←
        </span>{" "}
        {t("admin.ventures.back")}
      </Link>
      <h1 className="mt-4 text-3xl font-bold">{editing ? t("admin.ventures.edit") : t("admin.ventures.new")}</h1>
      {loaderData.current.state && (
        <LifecyclePanel kind="venture" slug={loaderData.current.values.slug ?? ""} state={loaderData.current.state} />
      )}
      <div className="mt-6">
        <AiAssistant
          kind="venture"
          unavailable={loaderData.aiUnavailable}
          onBusy={setGenerating}
          onDraft={applyDraft}
        />
      </div>
      {unsaved.restoredAt !== null && <RestoredNotice at={unsaved.restoredAt} onDiscard={unsaved.discard} />}
      <Form method="post" encType="multipart/form-data" className="mt-8 space-y-5" onSubmit={unsaved.markSubmitted}>
        <VersionTabs
          kind="venture"
          locale={loaderData.current.locale}
          other={loaderData.current.other}
          otherVersion={conflictOf(actionData)?.otherVersion}
          values={values}
          errors={errors}
          set={set}
          setTitle={setTitle}
          setValues={setValues}
          aiUnavailable={loaderData.aiUnavailable}
          onBusy={setGenerating}
        />
        <h2 className="border-t border-line pt-5 text-sm font-semibold text-mist">{t("admin.languages.shared")}</h2>
        <Field
          name="slug"
          label={t("admin.ventures.slug")}
          hint={t("admin.slugHint")}
          required
          ltr
          value={values.slug}
          error={errors.slug}
          onChange={setSlug}
        />
        <Field
          name="websiteURL"
          inputMode="url"
          autoComplete="url"
          label={t("admin.ventures.website")}
          required
          ltr
          value={values.websiteURL}
          error={errors.websiteURL}
          onChange={set("websiteURL")}
        />
        <Field
          name="publishAt"
          type="date"
          label={t("admin.ventures.publishAt")}
          hint={t("admin.ventures.publishAtHint")}
          ltr
          value={values.publishAt}
          error={errors.publishAt}
          onChange={set("publishAt")}
        />
        <ImagePicker
          name="logo"
          label={t("admin.ventures.logo")}
          current={loaderData.current.image}
          error={errors.logo}
        />
        <FormFooter
          error={actionData?.formError}
          state={loaderData.current.state ?? null}
          version={conflictOf(actionData)?.version ?? loaderData.current.version ?? null}
          theirs={conflictOf(actionData) ? location.pathname : null}
          busy={generating}
          saving={saving}
          label={editing ? t("admin.saveChanges") : t("admin.ventures.createVenture")}
        />
      </Form>
      {params.id && <HistoryPanel kind="venture" itemId={params.id} />}
    </div>
  );
}
