import { useEffect, useId, useRef, useState, type SyntheticEvent } from "react";
import { useLocale, useTranslation } from "../../hooks.ts";
import { fetchMediaList, formatBytes, postMedia, type MediaImage } from "./media-api.ts";
import type { ContentLocale } from "../../../model/locales.ts";
import { directionOf } from "../../i18n/i18n.ts";
import { FileChooser } from "./file-chooser.tsx";

/** What the picker hands its caller: the image's URL, the alt text typed, its size in pixels. */
export interface InsertedImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/**
 * The media library's picker (issue #30 item 3), for the body editor and the media page: a modal dialog (the
 * browser's `<dialog>`: focus stays inside, Escape closes it) that lists and searches the library, uploads a new
 * image in place, and inserts the chosen one with its alt text, which is required and prefilled from the
 * image's default in `lang` (the version's language), with "Suggest alt text" (Gemini, where set up).
 */
export function MediaPicker(props: {
  open: boolean;
  lang: ContentLocale;
  onInsert(image: InsertedImage): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const dialog = useRef<HTMLDialogElement>(null);
  const altInput = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const altErrorId = useId();
  const [search, setSearch] = useState("");
  const [images, setImages] = useState<MediaImage[] | null>(null);
  const [ai, setAi] = useState(false);
  const [message, setMessage] = useState("");
  const [chosen, setChosen] = useState<MediaImage | null>(null);
  const [alt, setAlt] = useState("");
  const [altError, setAltError] = useState(false);
  const [busy, setBusy] = useState<"upload" | "suggest" | "insert" | null>(null);
  const language = t(`admin.languages.inSentence.${props.lang}`);
  const dir = directionOf(props.lang);

  const load = (query: string) => {
    setMessage("");
    fetchMediaList(query).then(
      (list) => {
        setImages(list.images);
        setAi(list.ai);
      },
      () => setMessage(t("admin.media.failed")),
    );
  };

  useEffect(() => {
    if (props.open && !dialog.current?.open) {
      dialog.current?.showModal();
      setChosen(null);
      load(search);
    }
    if (!props.open && dialog.current?.open) dialog.current.close();
    // Opens and loads once per `open`.
  }, [props.open]);

  const choose = (image: MediaImage) => {
    setChosen(image);
    setAlt(image.alt[props.lang] ?? "");
    setAltError(false);
    setMessage("");
  };

  const upload = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    form.set("intent", "upload");
    setBusy("upload");
    const reply = await postMedia(form, t("admin.media.failed"));
    setBusy(null);
    setMessage(reply.message);
    if (reply.ok && reply.image) {
      setImages((list) => [reply.image!, ...(list ?? [])]);
      choose(reply.image);
    }
  };

  const suggest = async () => {
    if (!chosen) return;
    const form = new FormData();
    form.set("intent", "suggest");
    form.set("id", chosen.id);
    form.set("locale", props.lang);
    setBusy("suggest");
    const reply = await postMedia(form, t("admin.media.suggestFailed"));
    setBusy(null);
    if (reply.ok && reply.alt) {
      setAlt(reply.alt);
      setAltError(false);
      setMessage("");
    } else setMessage(reply.message);
  };

  const insert = async () => {
    if (!chosen) return;
    const text = alt.replace(/\s+/g, " ").trim();
    if (!text) {
      setAltError(true);
      altInput.current?.focus();
      return;
    }
    let image = chosen;
    if (!image.width || !image.height) {
      // A file from before the library: saving its alt text gives it a row, and so its size.
      const form = new FormData();
      form.set("intent", "alt");
      form.set("id", image.id);
      for (const [l, value] of Object.entries({ ...image.alt, [props.lang]: text })) form.set(`alt.${l}`, value);
      setBusy("insert");
      const reply = await postMedia(form, t("admin.media.failed"));
      setBusy(null);
      if (!reply.ok || !reply.image?.width || !reply.image.height) return setMessage(reply.message);
      image = reply.image;
    }
    props.onInsert({ src: image.url, alt: text, width: image.width!, height: image.height! });
  };

  return (
    <dialog
      ref={dialog}
      onClose={props.onClose}
      aria-labelledby={titleId}
      className="m-auto max-h-[92vh] w-[min(44rem,calc(100vw-1rem))] overflow-y-auto rounded-2xl border border-line bg-panel p-4 text-white backdrop:bg-black/70 sm:p-6"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={titleId} className="text-lg font-bold">
          {t("admin.media.pickerTitle")}
        </h2>
        <button type="button" onClick={props.onClose} className="rounded-full border border-line px-3 py-1 text-sm">
          {t("admin.media.close")}
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-gold">
        {message}
      </p>
      {chosen ? (
        <div className="mt-2 grid gap-3">
          <img
            src={`${chosen.url}?w=640`}
            alt=""
            width={chosen.width ?? undefined}
            height={chosen.height ?? undefined}
            className="max-h-60 w-auto rounded-lg object-contain"
          />
          <p className="text-sm text-mist" dir="auto">
            {t("admin.media.chosen")}: {chosen.name}
          </p>
          <label className="grid gap-1 text-sm">
            <span>{t("admin.media.alt")}</span>
            <textarea
              ref={altInput}
              name="alt"
              lang={props.lang}
              dir={dir}
              rows={2}
              value={alt}
              required
              aria-invalid={altError}
              aria-describedby={altErrorId}
              onChange={(e) => setAlt(e.currentTarget.value)}
              className="rounded-lg border border-line bg-ink p-2 text-white"
            />
            <span
              id={altErrorId}
              className={altError ? "text-red-400" : "text-mist"}
              role={altError ? "alert" : undefined}
            >
              {altError ? t("admin.media.altRequired") : t("admin.media.altHint", { language })}
            </span>
          </label>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              onClick={suggest}
              disabled={!ai || busy !== null}
              aria-describedby={ai ? undefined : `${altErrorId}-ai`}
              className="rounded-full border border-line px-4 py-2 text-sm disabled:opacity-60"
            >
              {busy === "suggest" ? t("admin.media.suggesting") : t("admin.media.suggest")}
            </button>
            <button
              type="button"
              onClick={insert}
              disabled={busy !== null}
              className="rounded-full bg-gold px-4 py-2 text-sm font-semibold text-ink disabled:opacity-60"
            >
              {t("admin.media.insert")}
            </button>
            <button type="button" onClick={() => setChosen(null)} className="px-2 py-2 text-sm text-mist underline">
              {t("admin.media.back")}
            </button>
          </div>
          {!ai && (
            <p id={`${altErrorId}-ai`} className="text-xs text-mist">
              {t("admin.media.suggestOff")}
            </p>
          )}
        </div>
      ) : (
        <div className="mt-2 grid gap-4">
          <form onSubmit={upload} className="grid min-w-0 gap-2 rounded-xl border border-line p-3">
            <FileChooser name="file" required label={t("admin.media.upload")} />
            <button
              type="submit"
              disabled={busy !== null}
              className="justify-self-start rounded-full border border-line px-4 py-1.5 text-sm disabled:opacity-60"
            >
              {busy === "upload" ? t("admin.media.uploading") : t("admin.media.uploadSubmit")}
            </button>
          </form>
          <form
            role="search"
            onSubmit={(e) => {
              e.preventDefault();
              load(search);
            }}
            className="flex gap-2"
          >
            <input
              type="search"
              aria-label={t("admin.media.search")}
              placeholder={t("admin.media.searchPlaceholder")}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              className="min-w-0 flex-1 rounded-lg border border-line bg-ink px-3 py-1.5 text-sm"
            />
            <button type="submit" className="rounded-full border border-line px-4 py-1.5 text-sm">
              {t("admin.media.searchButton")}
            </button>
          </form>
          {images === null ? (
            <p className="text-sm text-mist">{t("admin.media.loading")}</p>
          ) : images.length === 0 ? (
            <p className="text-sm text-mist">{search ? t("admin.media.noMatch") : t("admin.media.empty")}</p>
          ) : (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label={t("admin.media.title")}>
              {images.map((image) => (
                <li key={image.id}>
                  <button
                    type="button"
                    onClick={() => choose(image)}
                    className="grid w-full gap-1 rounded-xl border border-line p-2 text-start text-xs hover:border-gold"
                  >
                    <img
                      src={`${image.url}?w=320`}
                      alt=""
                      loading="lazy"
                      className="aspect-video w-full rounded object-cover"
                    />
                    <span className="truncate" dir="auto">
                      {image.name}
                    </span>
                    <span className="text-mist">
                      {formatBytes(image.bytes, locale)}
                      {image.width ? ` · ${image.width}×${image.height}` : ""}
                    </span>
                    <span className="sr-only">{t("admin.media.choose")}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </dialog>
  );
}
