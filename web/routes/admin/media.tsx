import { useState, type SyntheticEvent } from "react";
import { Form, useRevalidator } from "react-router";
import { useTranslation } from "../../hooks.ts";
import { loadMediaList } from "../../data/media.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import { MediaCard } from "../../components/admin/media-card.tsx";
import { MediaPicker } from "../../components/admin/media-picker.tsx";
import { imageHtml, postMedia } from "../../components/admin/media-api.ts";
import { CONTENT_LOCALES } from "../../../model/model.ts";
import type { Route } from "./+types/media";
import { FileChooser } from "../../components/admin/file-chooser.tsx";

/**
 * The media library page (issue #30 item 3), the studio team's (404 for anyone else): upload an image with
 * optional default alt texts, search, and per image its facts, where it is used, alt texts, Copy URL, Replace
 * and Delete (`MediaCard`). "Insert an image" opens the picker the body editor uses and shows the HTML it
 * would insert, to copy.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const list = await loadMediaList(request);
  return { ...list, search: new URL(request.url).searchParams.get("q") ?? "" };
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.media.title");
}

const input = "w-full rounded-lg border border-line bg-ink px-3 py-2 text-sm text-white";
const button = "rounded-full border border-line px-4 py-2 text-sm disabled:opacity-60";

export default function MediaPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [message, setMessage] = useState("");
  const [uploading, setUploading] = useState(false);
  const [picking, setPicking] = useState<"en" | "ar" | null>(null);
  const [inserted, setInserted] = useState("");

  const upload = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    const form = new FormData(target);
    form.set("intent", "upload");
    setUploading(true);
    const reply = await postMedia(form, t("admin.media.failed"));
    setUploading(false);
    setMessage(reply.message);
    if (reply.ok) {
      target.reset();
      await revalidator.revalidate();
    }
  };

  return (
    <div className="grid min-w-0 max-w-4xl gap-6">
      <div>
        <h1 className="text-2xl font-bold">{t("admin.media.title")}</h1>
        <p className="mt-2 text-sm text-mist">{t("admin.media.intro")}</p>
      </div>
      <form
        onSubmit={upload}
        aria-label={t("admin.media.upload")}
        className="grid min-w-0 gap-3 rounded-2xl border border-line bg-panel p-4"
      >
        <h2 className="font-semibold">{t("admin.media.upload")}</h2>
        <FileChooser name="file" required label={t("admin.media.file")} hint={t("admin.media.fileHint")} />
        <div className="grid gap-3 sm:grid-cols-2">
          {CONTENT_LOCALES.map((l) => (
            <label key={l} className="grid gap-1 text-sm">
              <span>{t("admin.media.altIn", { language: t(`admin.languages.inSentence.${l}`) })}</span>
              <input name={`alt.${l}`} lang={l} dir={l === "ar" ? "rtl" : "ltr"} maxLength={500} className={input} />
            </label>
          ))}
        </div>
        <p className="text-xs text-mist">{t("admin.media.altOptional")}</p>
        <button type="submit" disabled={uploading} className={`${button} justify-self-start`}>
          {uploading ? t("admin.media.uploading") : t("admin.media.uploadSubmit")}
        </button>
        <p role="status" className="min-h-5 text-sm text-gold">
          {message}
        </p>
      </form>
      <div className="flex flex-wrap items-end gap-3">
        <Form method="get" role="search" className="flex min-w-0 flex-1 gap-2">
          <input
            type="search"
            name="q"
            defaultValue={loaderData.search}
            aria-label={t("admin.media.search")}
            placeholder={t("admin.media.searchPlaceholder")}
            className={`${input} min-w-0 flex-1`}
          />
          <button type="submit" className={button}>
            {t("admin.media.searchButton")}
          </button>
        </Form>
        {CONTENT_LOCALES.map((l) => (
          <button key={l} type="button" onClick={() => setPicking(l)} className={button} lang={l}>
            {t("admin.media.openPicker")} ({t(`admin.languages.${l}`)})
          </button>
        ))}
      </div>
      {inserted && (
        <label className="grid gap-1 text-sm">
          <span>{t("admin.media.insertHtml")}</span>
          <textarea readOnly dir="ltr" rows={2} value={inserted} className={`${input} font-mono`} />
        </label>
      )}
      {loaderData.images.length === 0 ? (
        <p className="text-sm text-mist">{loaderData.search ? t("admin.media.noMatch") : t("admin.media.empty")}</p>
      ) : (
        <ul className="grid gap-3" aria-label={t("admin.media.title")}>
          {loaderData.images.map((image) => (
            <MediaCard key={image.id} image={image} />
          ))}
        </ul>
      )}
      <MediaPicker
        open={picking !== null}
        lang={picking ?? "en"}
        onClose={() => setPicking(null)}
        onInsert={(image) => {
          setInserted(imageHtml(image));
          setPicking(null);
        }}
      />
    </div>
  );
}
