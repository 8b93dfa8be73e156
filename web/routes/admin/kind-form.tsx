import { useEffect } from "react";
import {
  useActionData,
  useLoaderData,
  useParams,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaArgs,
} from "react-router";
import { useTranslation } from "../../hooks.ts";
import { ImagePicker } from "../../components/admin/fields.tsx";
import { fieldLabelKey } from "../../i18n/admin-labels.ts";
import { ItemForm, useItemForm } from "../../components/admin/item-form.tsx";
import { KindFields } from "../../components/admin/kind-fields.tsx";
import { CONTENT_MODEL, imageInput, initialValues, inputFields, type ContentKind } from "../../../model/model.ts";
import { aiUnavailableMessage, loadFormValues, newFormValues } from "../../data/admin.server.ts";
import { saveItem } from "../../data/admin-save.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import { adminKindOf } from "../../kind-route.ts";

/**
 * New item of a kind, or edit one (spec §2: mode is edit when the route has an id), for the kinds without a
 * form of their own (`views.form`): mounted per kind at `/admin/<adminPath>/new|edit/:id` (`web/routes.ts`).
 * Its fields come from the kind's description (`KindFields`, the image picker); a new item starts with each
 * field's `initial` (the user's name, today).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { secret, user } = await requireUser(request);
  const kind = adminKindOf(request.url);
  const current = params.id
    ? await loadFormValues(secret, kind, params.id, preferredLocale(request))
    : await newFormValues(
        secret,
        kind,
        initialValues(kind, { userName: user.name, today: new Date().toISOString().slice(0, 10) }),
        preferredLocale(request),
      );
  return { kind, current, editing: Boolean(params.id), aiUnavailable: aiUnavailableMessage(preferredLocale(request)) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  return saveItem(request, adminKindOf(request.url), params.id);
}

export function meta({ params, matches, location }: MetaArgs<typeof loader>) {
  const { adminPath } = CONTENT_MODEL[adminKindOf(location.pathname)];
  return adminTitle(matches, params.id ? `admin.${adminPath}.edit` : `admin.${adminPath}.new`);
}

/** Today's date in the browser's time zone, as a date input's value (YYYY-MM-DD). */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export default function KindForm() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const params = useParams();
  const { t } = useTranslation();
  const kind: ContentKind = loaderData.kind;
  const form = useItemForm(kind, loaderData, actionData, params.id);
  const { values, setValues, errors } = form;
  // The server only knows today in UTC; a new item's date is today where the user is (spec §2: "date to now").
  useEffect(() => {
    if (loaderData.editing || actionData) return;
    const server = loaderData.current.values as Record<string, string>;
    const today = initialValues(kind, { userName: "", today: localToday() });
    setValues((v) => {
      const next = { ...v };
      for (const [name, field] of inputFields(kind)) {
        if (field.initial === "today" && v[name] === server[name]) next[name] = today[name]!;
      }
      return next;
    });
    // Once, after hydration.
  }, []);
  const image = imageInput(kind);
  return (
    <ItemForm kind={kind} form={form} loaderData={loaderData} actionData={actionData} itemId={params.id}>
      <KindFields kind={kind} size="short" translated={false} values={values} errors={errors} set={form.set} />
      <ImagePicker
        name={image}
        label={t(fieldLabelKey(kind, image))}
        current={loaderData.current.image}
        error={errors[image]}
      />
      <KindFields kind={kind} size="long" translated={false} values={values} errors={errors} set={form.set} />
    </ItemForm>
  );
}
