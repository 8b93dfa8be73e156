import { useState, type ReactNode } from "react";
import { useHydrated, useLocale, useTranslation } from "../../hooks.ts";
import { formatLongDate } from "../../i18n/i18n.ts";
import { slugify } from "../../../lib/content/slug.ts";
import { imageTypeOf, MAGIC_BYTES } from "../../../lib/images/magic.ts";
import { ChosenFile, IMAGE_TYPES } from "./file-chooser.tsx";
import { LifecycleButtons } from "./lifecycle.tsx";
import type { ItemState } from "../../../model/lifecycle.ts";

const input =
  "w-full rounded-lg border border-line bg-ink px-3 py-2 text-sm text-white placeholder:text-mist/60 focus:border-gold focus:outline-none";

/** A labelled text field; `ltr` keeps slugs and URLs left-to-right in Arabic (issue #5 item 5). */
export function Field(props: {
  name: string;
  label: string;
  defaultValue?: string;
  type?: "text" | "url" | "email" | "date" | "password";
  required?: boolean;
  ltr?: boolean;
  hint?: string;
  error?: string;
  readOnly?: boolean;
  value?: string;
  onChange?: (value: string) => void;
  autoComplete?: string;
  /** The on-screen keyboard (`url` for a web address typed without `https://`, which `type="url"` refuses). */
  inputMode?: "text" | "url" | "email";
  /** The text direction of a language version's field (Arabic: `rtl` whatever the admin's language). */
  dir?: "ltr" | "rtl";
  lang?: string;
}) {
  const id = `field-${props.name}`;
  const { t } = useTranslation();
  const locale = useLocale();
  // A date input's own texts follow its `lang` where the browser lets them; the day chosen is said in the admin's
  // words below it, whatever the browser shows (issue #29 item 7).
  const date = props.type === "date" && /^\d{4}-\d{2}-\d{2}$/.test(props.value ?? "") ? props.value! : null;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        dir={props.dir ?? (props.ltr ? "ltr" : "auto")}
        lang={props.lang ?? (props.type === "date" ? locale : undefined)}
        required={props.required}
        readOnly={props.readOnly}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        {...(props.onChange
          ? { value: props.value ?? "", onChange: (e) => props.onChange!(e.target.value) }
          : { defaultValue: props.defaultValue })}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        className={`${input} ${props.readOnly ? "opacity-70" : ""}`}
      />
      {date && (
        <p data-date-shown className="mt-1 text-xs text-mist">
          {t("admin.formWords.dateShown", { date: formatLongDate(date, locale) })}
        </p>
      )}
      {props.hint && !props.error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-mist">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-400">
          {props.error}
        </p>
      )}
    </div>
  );
}

/**
 * A labelled textarea (spec §9 gives each its rows: 3 for a short text, 15 or 12 for a body). With `labelledBy`, the label is
 * an element elsewhere (the HTML editor puts it above its tabs).
 */
export function TextArea(props: {
  name: string;
  label: string;
  rows: number;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  error?: string;
  code?: boolean;
  labelledBy?: string;
  /** The text direction of a language version's field (Arabic: `rtl` whatever the admin's language). */
  dir?: "ltr" | "rtl";
  lang?: string;
  /** More classes of the text area (the body's HTML source: `html-source`). */
  className?: string;
}) {
  const id = `field-${props.name}`;
  return (
    <div>
      {!props.labelledBy && (
        <label htmlFor={id} className="mb-1 block text-sm font-medium">
          {props.label}
        </label>
      )}
      <textarea
        id={id}
        name={props.name}
        rows={props.rows}
        required={props.required}
        dir={props.dir ?? (props.code ? "ltr" : "auto")}
        lang={props.lang}
        aria-labelledby={props.labelledBy}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        className={`${input} ${props.code ? "font-mono text-xs" : ""} ${props.className ?? ""}`}
      />
      {props.error && (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-400">
          {props.error}
        </p>
      )}
    </div>
  );
}

/**
 * An image picker that accepts image files only, with a preview of the chosen (or current) image. A file
 * given by `generated` (an AI image) is put into the input so the form submits it like a chosen one. A chosen
 * file that is not a JPEG, PNG, GIF or WebP by its first bytes (`imageTypeOf`) is refused at once (issue #17
 * item 2): its error is shown by the field, the input is invalid so the form is not sent, and the preview
 * keeps the current image. The server checks every image again (`checkImage`).
 */
export function ImagePicker(props: {
  name: string;
  label: string;
  current: string | null;
  generated?: File | null;
  error?: string;
}) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<string | null>(props.current);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  // The browser's own button and "No file chosen" follow the browser's language: once hydrated, the input is
  // visually hidden (still focused and keyboard-operated) behind a button of the admin's (issue #29 item 7).
  const own = useHydrated();
  const id = `field-${props.name}`;
  const error = refusal ?? props.error;
  const choose = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    const bytes = file ? new Uint8Array(await file.slice(0, MAGIC_BYTES).arrayBuffer()) : null;
    const refused =
      file && bytes && !(await imageTypeOf(bytes)) ? t("admin.errors.image.notImage", { file: file.name }) : null;
    if (input.files?.[0] !== file) return; // another file was chosen while this one was read: its check decides
    setFileName(file?.name ?? null);
    input.setCustomValidity(refused ?? "");
    setRefusal(refused);
    setPreview(file && !refused ? URL.createObjectURL(file) : props.current);
  };
  const attach = (input: HTMLInputElement | null) => {
    if (!input || !props.generated || input.files?.[0] === props.generated) return;
    const transfer = new DataTransfer();
    transfer.items.add(props.generated);
    input.files = transfer.files;
    setFileName(props.generated.name);
    setPreview(URL.createObjectURL(props.generated));
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      <div className="flex items-center gap-4">
        {preview ? (
          <img
            src={preview}
            alt={t("admin.imagePreview")}
            className="size-20 shrink-0 rounded-lg border border-line object-cover"
          />
        ) : (
          <span className="grid size-20 shrink-0 place-items-center rounded-lg border border-dashed border-line text-xs text-mist">
            {t("admin.noImage")}
          </span>
        )}
        <input
          ref={attach}
          id={id}
          name={props.name}
          type="file"
          accept={IMAGE_TYPES}
          onChange={(e) => void choose(e.currentTarget)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : own ? `${id}-chosen` : undefined}
          className={
            own
              ? "peer sr-only"
              : "min-w-0 flex-1 text-sm text-mist file:me-3 file:rounded-full file:border-0 file:bg-gold file:px-4 file:py-2 file:font-semibold file:text-ink"
          }
        />
        {own && (
          <div className="flex min-w-0 flex-1 flex-wrap items-center gap-3 text-sm peer-focus-visible:[&>label]:ring-2 peer-focus-visible:[&>label]:ring-white">
            <ChosenFile
              inputId={id}
              fileName={fileName}
              buttonClassName="cursor-pointer rounded-full bg-gold px-4 py-2 font-semibold text-ink"
            />
          </div>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} role={refusal ? "alert" : undefined} className="mt-1 text-xs text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** The end of an admin form: the submission error (spec §8), then the submit button (disabled while busy). */
/** The edit conflict a refused save answered with (409, `saveItem`), if any. */
export function conflictOf(
  actionData: unknown,
): { version: string; otherVersions: Partial<Record<string, string | null>> } | null {
  const conflict = (actionData as { conflict?: { version?: unknown; otherVersions?: unknown } } | undefined)?.conflict;
  if (typeof conflict?.version !== "string") return null;
  // The other language version's, when the form saves both (issue #15 item 6).
  const others = conflict.otherVersions;
  const otherVersions = typeof others === "object" && others !== null ? (others as Record<string, string | null>) : {};
  return { version: conflict.version, otherVersions };
}

export function FormFooter(props: {
  error: string | null | undefined;
  busy: boolean;
  saving: boolean;
  label: string;
  /** The item's state (null for a new one): "Unpublish" is offered for published and scheduled items. */
  state?: ItemState | null;
  /** The `$updatedAt` the form was opened with (posted as `version`: a concurrent save is refused). */
  version?: string | null;
  /** After a refused concurrent save: how to resolve it (`ConflictPanel`), under the error. */
  conflict?: ReactNode;
  /** The buttons that save and publish (issue #29: `PublishControls`), instead of the submit and lifecycle buttons. */
  controls?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      {props.error && (
        <p role="alert" className="rounded-lg border border-red-500/50 bg-red-500/10 p-3 text-sm text-red-300">
          {props.error}
        </p>
      )}
      {props.conflict}
      {props.version && <input type="hidden" name="version" value={props.version} />}
      {props.controls ?? (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            name="intent"
            value="publish"
            disabled={props.saving || props.busy}
            className="rounded-full bg-gold px-6 py-2.5 font-semibold text-ink disabled:opacity-60"
          >
            {props.saving ? t("admin.saving") : props.label}
          </button>
          <LifecycleButtons state={props.state ?? null} disabled={props.saving || props.busy} />
        </div>
      )}
    </>
  );
}

/**
 * The values of an admin form, with the slug following the title (spec §2 "URL-friendly identifier") until
 * the user edits it or an AI draft brings its own; `slugify` never yields an empty slug, even for Arabic.
 */
export function useItemFormValues(initial: Record<string, string>, titleField: string, slugFallback: string) {
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [slugTouched, setSlugTouched] = useState(Boolean(initial.slug));
  return {
    values,
    setValues,
    /** An `onChange` for one field. */
    set: (name: string) => (value: string) => setValues((v) => ({ ...v, [name]: value })),
    setTitle: (title: string) =>
      setValues((v) => ({ ...v, [titleField]: title, ...(slugTouched ? {} : { slug: slugify(title, slugFallback) }) })),
    setSlug: (slug: string) => {
      setSlugTouched(true);
      setValues((v) => ({ ...v, slug }));
    },
    applyDraft: (draft: Record<string, string>) => {
      setValues((v) => ({ ...v, ...draft }));
      setSlugTouched(true);
    },
  };
}
