import { useState, type SyntheticEvent } from "react";
import { Link, useRevalidator } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { CONTENT_LOCALES, CONTENT_MODEL } from "../../../model/model.ts";
import { formatBytes, formatUploadDate, postMedia, type MediaImage } from "./media-api.ts";
import { FileChooser } from "./file-chooser.tsx";

const button = "rounded-full border border-line px-3 py-1 text-xs disabled:opacity-60";
const input = "w-full rounded-lg border border-line bg-ink px-2 py-1 text-sm text-white";

/**
 * One image of the media page (issue #30 item 3): thumbnail, name, size, dimensions, uploader and date, where
 * it is used (links to those items' edit pages), its default alt texts per language, Copy URL, Replace and
 * Delete (refused while used: the message lists where). Writes go to the library's API; the page reloads its
 * list after each.
 */
export function MediaCard({ image }: { image: MediaImage }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);

  const send = async (form: FormData) => {
    form.set("id", image.id);
    setBusy(true);
    const reply = await postMedia(form, t("admin.media.failed"));
    setBusy(false);
    setMessage(reply.message);
    if (reply.ok) await revalidator.revalidate();
  };
  const submit = (intent: string) => async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    form.set("intent", intent);
    await send(form);
  };
  const copy = async () => {
    await navigator.clipboard?.writeText(new URL(image.url, location.href).href).catch(() => {});
    setMessage(t("admin.media.copied"));
  };

  return (
    <li
      className="grid min-w-0 gap-3 rounded-xl border border-line p-3 sm:grid-cols-[10rem_minmax(0,1fr)]"
      data-media={image.id}
    >
      <img
        src={`${image.url}?w=320`}
        alt=""
        width={image.width ?? 160}
        height={image.height ?? 90}
        loading="lazy"
        className="h-auto w-full rounded-lg object-cover sm:w-40"
      />
      <div className="grid min-w-0 gap-2 text-sm">
        <p className="truncate font-semibold" dir="auto">
          {image.name}
        </p>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs text-mist [overflow-wrap:anywhere]">
          <dt>{t("admin.media.size")}</dt>
          <dd suppressHydrationWarning>{formatBytes(image.bytes, locale)}</dd>
          <dt>{t("admin.media.dimensions")}</dt>
          <dd dir="ltr" className="text-start">
            {image.width ? `${image.width} × ${image.height}` : t("admin.media.unknown")}
          </dd>
          <dt>{t("admin.media.uploaded")}</dt>
          <dd suppressHydrationWarning>
            <span dir="auto">{image.uploadedByName ?? ""}</span> {formatUploadDate(image.uploadedAt, locale)}
          </dd>
          <dt>{t("admin.media.usedIn")}</dt>
          <dd>
            {image.uses.length === 0 ? (
              t("admin.media.notUsed")
            ) : (
              <ul>
                {image.uses.map((use) => (
                  <li key={`${use.kind}/${use.rowId}/${use.field}`}>
                    <Link to={`/admin/${CONTENT_MODEL[use.kind].adminPath}/edit/${use.rowId}`} className="underline">
                      <span dir="auto">{use.title || use.slug}</span>
                    </Link>{" "}
                    ({t(use.field === "image" ? "admin.media.asImage" : "admin.media.asBody")})
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
        <form onSubmit={submit("alt")} className="grid min-w-0 gap-2 sm:grid-cols-2">
          {CONTENT_LOCALES.map((l) => (
            <label key={l} className="grid min-w-0 gap-1 text-xs">
              <span>{t("admin.media.altIn", { language: t(`admin.languages.inSentence.${l}`) })}</span>
              <input
                name={`alt.${l}`}
                defaultValue={image.alt[l] ?? ""}
                lang={l}
                dir={l === "ar" ? "rtl" : "ltr"}
                maxLength={500}
                className={input}
              />
            </label>
          ))}
          <button type="submit" disabled={busy} className={`${button} justify-self-start`}>
            {t("admin.media.saveAlt")}
          </button>
        </form>
        <div className="flex flex-wrap items-end gap-2">
          <button type="button" onClick={copy} className={button}>
            {t("admin.media.copyUrl")}
          </button>
          <form onSubmit={submit("replace")} className="flex min-w-0 flex-wrap items-end gap-2">
            <FileChooser name="file" required label={t("admin.media.replaceFile")} />
            <button type="submit" disabled={busy} className={button}>
              {t("admin.media.replace")}
            </button>
          </form>
          <button
            type="button"
            disabled={busy}
            onClick={() => send(withIntent("delete"))}
            className={`${button} border-red-600 text-red-300`}
          >
            {t("admin.media.delete")}
          </button>
        </div>
        <p role="status" className="min-h-4 text-xs text-gold">
          {message}
        </p>
      </div>
    </li>
  );
}

function withIntent(intent: string): FormData {
  const form = new FormData();
  form.set("intent", intent);
  return form;
}
