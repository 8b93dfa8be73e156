import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { isAllowedUrl } from "../../../../lib/html/allowlist.ts";
import { useTranslation } from "../../../hooks.ts";

/** An address that looks like another site or an e-mail address written without its scheme. */
const SCHEMELESS = /^(?:[^\s/:?#@]+@)?[^\s/:?#.]+(?:\.[^\s/:?#.]+)*\.[a-z]{2,}(?:[/?#:]|$)/i;

/**
 * What is wrong with `url` as a link of a body, as a message key, or null when it can be linked: the
 * sanitizer's URL rule (`isAllowedUrl`, SECURITY C16), and an address of another site typed without
 * `https://` (`example.com/page`, `a@b.co`), which the rule would keep as a broken relative link.
 */
export function linkProblem(url: string): "admin.editor.linkBad" | "admin.editor.linkScheme" | null {
  const value = url.trim();
  if (!isAllowedUrl(value)) return "admin.editor.linkBad";
  if (!/^[/#.]/.test(value) && !/^[a-z][a-z0-9+.-]*:/i.test(value) && SCHEMELESS.test(value)) {
    return "admin.editor.linkScheme";
  }
  return null;
}

/**
 * The visual editor's link dialog (issue #30 item 1): a modal `<dialog>` (focus moves into it and returns,
 * Escape closes it) with the link's address, in the admin's language. An address the site would not keep is
 * refused with a sentence that says what to type; Apply sets the link, Remove link removes it. Rendered in
 * `document.body` (its form may not sit inside the item's form).
 */
export function LinkDialog(props: {
  open: boolean;
  initial: string;
  onApply: (href: string) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [url, setUrl] = useState(props.initial);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) {
      setUrl(props.initial);
      setProblem(null);
      element.showModal();
    } else if (!props.open && element.open) element.close();
  }, [props.open, props.initial]);

  return createPortal(
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      onClose={props.onClose}
      className="m-auto w-[min(28rem,92vw)] rounded-xl border border-line bg-panel p-5 text-inherit backdrop:bg-black/60"
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          const key = linkProblem(url);
          if (key) {
            setProblem(t(key));
            return;
          }
          props.onApply(url.trim());
        }}
      >
        <h2 id={`${id}-title`} className="mb-3 text-lg font-semibold">
          {t("admin.editor.linkTitle")}
        </h2>
        <label htmlFor={`${id}-url`} className="mb-1 block text-sm font-medium">
          {t("admin.editor.linkUrl")}
        </label>
        <input
          id={`${id}-url`}
          type="text"
          inputMode="url"
          dir="ltr"
          autoComplete="off"
          value={url}
          onChange={(event) => {
            setUrl(event.target.value);
            setProblem(null);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ""}`}
          className="w-full rounded-lg border border-line bg-ink px-3 py-2 text-sm"
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-mist">
          {t("admin.editor.linkHint")}
        </p>
        {problem && (
          <p id={`${id}-problem`} role="alert" className="mt-2 text-sm text-red-400">
            {problem}
          </p>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="submit" className="rounded-full bg-gold px-4 py-1.5 text-sm font-semibold text-ink">
            {t("admin.editor.linkApply")}
          </button>
          {props.initial && (
            <button
              type="button"
              onClick={props.onRemove}
              className="rounded-full border border-line px-4 py-1.5 text-sm"
            >
              {t("admin.editor.linkRemove")}
            </button>
          )}
          <button type="button" onClick={props.onClose} className="rounded-full px-4 py-1.5 text-sm text-mist">
            {t("admin.editor.linkCancel")}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
