import { useTranslation } from "../../hooks.ts";
import { Field, ImagePicker } from "../../components/admin/fields.tsx";
import { ItemForm, useItemForm } from "../../components/admin/item-form.tsx";
import { aiUnavailableMessage, loadFormValues, newFormValues } from "../../data/admin.server.ts";
import { saveItem } from "../../data/admin-save.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { accessOf } from "../../data/access.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/venture-form";

/**
 * New venture, or edit one (spec §2: mode is edit when the route has an id); both language versions (issue #15
 * item 6).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { secret, user } = await requireUser(request);
  const current = params.id
    ? await loadFormValues(secret, "venture", params.id, preferredLocale(request), await accessOf(user))
    : await newFormValues(secret, "venture", {}, preferredLocale(request));
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
  const form = useItemForm("venture", loaderData, actionData, params.id);
  const { values, errors, set } = form;
  return (
    <ItemForm kind="venture" form={form} loaderData={loaderData} actionData={actionData} itemId={params.id}>
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
      <ImagePicker
        name="logo"
        label={t("admin.ventures.logo")}
        current={loaderData.current.image}
        error={errors.logo}
      />
    </ItemForm>
  );
}
