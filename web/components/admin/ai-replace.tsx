import { useEffect, useId, useRef, useState } from "react";
import { useLocale, useTranslation } from "../../hooks.ts";
import { intlLocaleOf } from "../../i18n/i18n.ts";
import type { ContentKind, ContentLocale } from "../../../model/model.ts";
import { translatedFields } from "../../../model/model.ts";
import { fieldLabelKey } from "../../i18n/admin-labels.ts";

/** What an AI answer is about to write into the form: form keys (`title`, `ar.title`, `slug`) and their values. */
export interface AiFill {
  kind: ContentKind;
  /** The language version it fills. */
  locale: ContentLocale;
  /** The locale of the route's document: its fields' keys have no prefix. */
  routeLocale: ContentLocale;
  /** By form key, the values to write (provenance keys such as `ar.model` included). */
  next: Record<string, string>;
  /** Whether the version it replaces is a translation a person reviewed (the confirmation says so). */
  reviewed: boolean;
  /** Writes `next` into the form (and whatever the caller does with a draft, e.g. the slug stops following). */
  apply: () => void;
}

/** The field a form key names (`ar.title` → `title`), or null for a key of no field (`ar.model`). */
function fieldOf(kind: ContentKind, key: string): string | null {
  const name = key.includes(".") ? key.slice(key.indexOf(".") + 1) : key;
  return translatedFields(kind).includes(name) || name === "slug" ? name : null;
}

/**
 * "AI never overwrites silently" (issue #29 item 6): an AI answer (Generate, Translate with AI) that would
 * change a field already written asks first, in an accessible modal dialog (`<dialog>`, titled, its text naming
 * the fields that will be replaced, and saying so when a person reviewed that translation); once applied, a
 * status line names what the AI filled, with "Undo", which puts back every key the answer wrote as it was
 * before (once). Fields that were empty are filled without asking.
 * @returns `offer(fill)` to call with each answer, and `ui`: the dialog and the status line to render.
 */
export function useAiReplace(
  values: Record<string, string>,
  setValues: (update: (v: Record<string, string>) => Record<string, string>) => void,
) {
  const { t } = useTranslation();
  const intl = intlLocaleOf(useLocale());
  // Built only when a list is shown: an `Intl` object costs ICU data (see `formatLongDate`).
  const list = { format: (labels: string[]) => new Intl.ListFormat(intl, { type: "conjunction" }).format(labels) };
  const [asking, setAsking] = useState<{ fill: AiFill; labels: string[] } | null>(null);
  const [done, setDone] = useState<{ before: Record<string, string>; labels: string[] } | null>(null);
  const [undone, setUndone] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const language = (fill: AiFill) => t(`admin.languages.inSentence.${fill.locale}`);
  const labelsOf = (fill: AiFill, keys: string[]) =>
    keys.flatMap((k) => {
      const name = fieldOf(fill.kind, k);
      return name ? [t(fieldLabelKey(fill.kind, name)).replace(/\s*\([^)]*\)\s*$/, "")] : [];
    });

  const run = (fill: AiFill) => {
    const before = Object.fromEntries(Object.keys(fill.next).map((k) => [k, values[k] ?? ""]));
    fill.apply();
    const filled = Object.keys(fill.next).filter((k) => fill.next[k]?.trim() && fieldOf(fill.kind, k) !== "slug");
    setDone({ before, labels: labelsOf(fill, filled) });
    setUndone(false);
  };

  const offer = (fill: AiFill) => {
    // A field "written" is one with text that the answer would change (an automatic slug included).
    const replaced = Object.keys(fill.next).filter(
      (k) => fieldOf(fill.kind, k) && (values[k] ?? "").trim() !== "" && values[k] !== fill.next[k],
    );
    if (replaced.length === 0 && !fill.reviewed) return run(fill);
    setAsking({ fill, labels: labelsOf(fill, replaced) });
  };

  useEffect(() => {
    if (asking && !dialog.current?.open) dialog.current?.showModal();
    if (!asking && dialog.current?.open) dialog.current.close();
  }, [asking]);

  const undo = () => {
    if (!done) return;
    const before = done.before;
    setValues((v) => ({ ...v, ...before }));
    setDone(null);
    setUndone(true);
  };

  const ui = (
    <>
      <dialog
        ref={dialog}
        onClose={() => setAsking(null)}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto max-w-md rounded-2xl border border-line bg-panel p-6 text-white backdrop:bg-black/70"
      >
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {t("admin.ai.replaceTitle")}
        </h2>
        <div id={`${id}-text`} className="mt-3 space-y-2 text-sm text-mist">
          {asking && asking.labels.length > 0 && (
            <p>
              {t("admin.ai.replaceFields", { language: language(asking.fill), fields: list.format(asking.labels) })}
            </p>
          )}
          {asking?.fill.reviewed && <p>{t("admin.ai.replaceReviewed", { language: language(asking.fill) })}</p>}
        </div>
        <div className="mt-6 flex justify-end gap-3">
          <button
            type="button"
            onClick={() => setAsking(null)}
            className="rounded-full border border-line px-4 py-2 text-sm"
          >
            {t("admin.cancel")}
          </button>
          <button
            type="button"
            onClick={() => {
              const fill = asking?.fill;
              setAsking(null);
              if (fill) run(fill);
            }}
            className="rounded-full bg-gold px-4 py-2 text-sm font-semibold text-ink"
          >
            {t("admin.ai.replace")}
          </button>
        </div>
      </dialog>
      {(done || undone) && (
        <div role="status" className="mt-2 flex flex-wrap items-center gap-3 text-sm text-mist">
          <p>{done ? t("admin.ai.filled", { fields: list.format(done.labels) }) : t("admin.ai.undone")}</p>
          {done && (
            <button type="button" onClick={undo} className="rounded-full border border-gold/60 px-3 py-1 text-gold">
              {t("admin.ai.undo")}
            </button>
          )}
        </div>
      )}
    </>
  );
  return { offer, ui };
}
