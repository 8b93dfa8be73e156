import { useEffect, useState } from "react";
import { useTranslation } from "../../hooks.ts";
import { ImagePicker } from "../../components/admin/fields.tsx";
import { ItemForm, useItemForm } from "../../components/admin/item-form.tsx";
import { KindFields } from "../../components/admin/kind-fields.tsx";
import { initialValues, inputFields } from "../../../model/model.ts";
import { aiUnavailableMessage, loadFormValues, newFormValues } from "../../data/admin.server.ts";
import { saveItem } from "../../data/admin-save.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import { accessOf } from "../../data/access.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/post-form";

/**
 * New post (author defaults to the user's name, date to today: spec §2), or edit one; both language versions
 * (issue #15 item 6).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { secret, user } = await requireUser(request);
  const current = params.id
    ? await loadFormValues(secret, "post", params.id, preferredLocale(request), await accessOf(user))
    : await newFormValues(
        secret,
        "post",
        initialValues("post", { userName: user.name, today: new Date().toISOString().slice(0, 10) }),
        preferredLocale(request),
      );
  return { current, editing: Boolean(params.id), aiUnavailable: aiUnavailableMessage(preferredLocale(request)) };
}

export async function action({ request, params }: Route.ActionArgs) {
  return saveItem(request, "post", params.id);
}

export function meta({ params, matches }: Route.MetaArgs) {
  return adminTitle(matches, params.id ? "admin.blog.edit" : "admin.blog.new");
}

/** Today's date in the browser's time zone, as a date input's value (YYYY-MM-DD). */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export default function PostForm({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const form = useItemForm("post", loaderData, actionData, params.id);
  const { values, setValues, errors, generating, setGenerating } = form;
  const [image, setImage] = useState<File | null>(null);
  const [imageMessage, setImageMessage] = useState<string | null>(null);
  // The server only knows today in UTC; a new post's date is today where the user is (spec §2: "date to now").
  useEffect(() => {
    if (loaderData.editing || actionData) return;
    const server = loaderData.current.values as Record<string, string>;
    const today = initialValues("post", { userName: "", today: localToday() });
    setValues((v) => {
      const next = { ...v };
      for (const [name, field] of inputFields("post")) {
        if (field.initial === "today" && v[name] === server[name]) next[name] = today[name]!;
      }
      return next;
    });
    // Once, after hydration.
  }, []);
  const generateImage = async () => {
    if (!values.title?.trim()) return setImageMessage(t("admin.ai.titleRequired"));
    setGenerating(true);
    setImageMessage(null);
    try {
      const response = await fetch("/admin/ai/image", {
        method: "POST",
        body: new URLSearchParams({ kind: "post", title: values.title, slug: values.slug ?? "" }),
      });
      const body = (await response.json()) as { data?: string; fileName?: string; error?: string };
      if (!response.ok || !body.data) throw new Error(body.error ?? t("admin.ai.failedImage"));
      const bytes = Uint8Array.from(atob(body.data), (c) => c.charCodeAt(0));
      setImage(new File([bytes], body.fileName ?? "featured-image.jpg", { type: "image/jpeg" }));
    } catch (error) {
      setImageMessage((error as Error).message);
    } finally {
      setGenerating(false);
    }
  };

  return (
    <ItemForm kind="post" form={form} loaderData={loaderData} actionData={actionData} itemId={params.id}>
      <KindFields kind="post" size="short" translated={false} values={values} errors={errors} set={form.set} />
      <div>
        <ImagePicker
          name="featuredImage"
          label={t("admin.blog.featuredImage")}
          current={loaderData.current.image}
          generated={image}
          error={errors.featuredImage}
        />
        <button
          type="button"
          onClick={generateImage}
          disabled={generating || loaderData.aiUnavailable !== null}
          aria-describedby={loaderData.aiUnavailable !== null ? "ai-off-post" : undefined}
          className="mt-2 rounded-full border border-gold/60 px-4 py-1.5 text-sm text-gold disabled:opacity-50"
        >
          {generating ? t("admin.ai.generating") : t("admin.ai.generateImage")}
        </button>
        {imageMessage && <p className="mt-1 text-sm text-red-400">{imageMessage}</p>}
      </div>
      <KindFields kind="post" size="long" translated={false} values={values} errors={errors} set={form.set} />
    </ItemForm>
  );
}
