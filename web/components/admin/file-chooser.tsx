import { useId, useState } from "react";
import { useHydrated, useTranslation } from "../../hooks.ts";

/** The image types the admin accepts (the upload checks in `lib/images/upload.ts` say the same by content). */
export const IMAGE_TYPES = "image/jpeg,image/png,image/gif,image/webp";

/**
 * An image file input whose button and "no file chosen" text are in the admin's language, not the browser's
 * (issue #29 item 7): once the page has hydrated, the real `<input type=file>` is visually hidden (still the
 * one the keyboard reaches, focused ring on the button) and a label styled as a button opens it; before
 * that (or without JavaScript) the browser's own control shows. `label` names the field.
 */
export function FileChooser(props: { name: string; label: string; required?: boolean; hint?: string }) {
  const own = useHydrated();
  const id = useId();
  const [fileName, setFileName] = useState<string | null>(null);
  return (
    <div className="grid min-w-0 gap-1 text-sm">
      <label htmlFor={id}>{props.label}</label>
      <div className="flex min-w-0 flex-wrap items-center gap-3">
        <input
          id={id}
          type="file"
          name={props.name}
          required={props.required}
          accept={IMAGE_TYPES}
          onChange={(event) => setFileName(event.currentTarget.files?.[0]?.name ?? null)}
          aria-describedby={own ? `${id}-chosen` : undefined}
          className={own ? "peer sr-only" : "max-w-full min-w-0"}
        />
        {own && (
          <ChosenFile
            inputId={id}
            fileName={fileName}
            buttonClassName="cursor-pointer rounded-full border border-line px-4 py-1.5 peer-focus-visible:ring-2 peer-focus-visible:ring-white"
          />
        )}
      </div>
      {props.hint && <span className="text-xs text-mist">{props.hint}</span>}
    </div>
  );
}

/**
 * What stands for a visually hidden file input `inputId` once the page has hydrated: a label styled as a
 * button ("Choose image" in the admin's language) and the chosen file's name, or "No file chosen", at
 * `${inputId}-chosen` for the input's `aria-describedby` (issue #29 item 7).
 */
export function ChosenFile(props: { inputId: string; fileName: string | null; buttonClassName: string }) {
  const { t } = useTranslation();
  return (
    <>
      <label htmlFor={props.inputId} data-file-button className={props.buttonClassName}>
        {t("admin.formWords.chooseImage")}
      </label>
      <span id={`${props.inputId}-chosen`} dir="auto" className="min-w-0 break-all text-mist">
        {props.fileName ?? t("admin.formWords.noFile")}
      </span>
    </>
  );
}
