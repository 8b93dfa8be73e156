import { useState } from "react";
import { useTranslation } from "../../hooks.ts";
import { TextArea } from "./fields.tsx";

/**
 * HTML body editor (spec §2: Edit and Preview tabs, a Format button that indents the HTML two spaces per
 * nesting level in edit mode). Formatting runs on the server (`/admin/format`, Prettier), so Prettier never
 * reaches the browser; the preview is sanitized there too.
 */
export function HtmlEditor(props: {
  name: string;
  label: string;
  rows: number;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  /** Whether the browser requires it (default true; a language version that may stay empty is not). */
  required?: boolean;
  /** The text direction of a language version's body (Arabic: `rtl`), its editor and preview. */
  dir?: "ltr" | "rtl";
  lang?: string;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<"edit" | "preview">("edit");
  const [preview, setPreview] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const call = async (path: string) => {
    setBusy(true);
    setProblem(null);
    try {
      const response = await fetch(path, { method: "POST", body: new URLSearchParams({ html: props.value }) });
      const body = (await response.json()) as { html?: string; error?: string };
      if (!response.ok || body.html === undefined) throw new Error(body.error ?? t("general.error"));
      return body.html;
    } catch (error) {
      setProblem((error as Error).message);
      return null;
    } finally {
      setBusy(false);
    }
  };
  const tab = (active: boolean) =>
    `rounded-t-lg px-4 py-2 text-sm ${active ? "bg-panel text-gold" : "text-mist hover:text-white"}`;
  const labelId = `label-${props.name}`;
  return (
    <div>
      <label id={labelId} htmlFor={`field-${props.name}`} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      {/* Only tabs in the tab list (axe aria-required-children): the Format button sits beside it. */}
      <div className="flex items-end gap-1">
        <div role="tablist" aria-label={props.label} className="flex items-end gap-1">
          <button
            type="button"
            role="tab"
            aria-selected={mode === "edit"}
            className={tab(mode === "edit")}
            onClick={() => setMode("edit")}
          >
            {t("admin.edit")}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={mode === "preview"}
            className={tab(mode === "preview")}
            onClick={async () => {
              const html = await call("/admin/preview-html");
              if (html !== null) {
                setPreview(html);
                setMode("preview");
              }
            }}
          >
            {t("admin.preview")}
          </button>
        </div>
        {mode === "edit" && (
          <button
            type="button"
            disabled={busy || !props.value.trim()}
            className="ms-auto mb-1 rounded-full border border-gold/60 px-3 py-1 text-xs text-gold disabled:opacity-40"
            onClick={async () => {
              const html = await call("/admin/format");
              if (html !== null) props.onChange(html);
            }}
          >
            {t("admin.format")}
          </button>
        )}
      </div>
      {mode === "edit" ? (
        <TextArea
          name={props.name}
          label={props.label}
          rows={props.rows}
          value={props.value}
          onChange={props.onChange}
          required={props.required ?? true}
          code
          labelledBy={labelId}
          error={props.error}
          dir={props.dir}
          lang={props.lang}
        />
      ) : (
        <>
          <input type="hidden" name={props.name} value={props.value} />
          <div
            className="prose-body min-h-40 rounded-lg border border-line bg-ink p-4"
            dir={props.dir ?? "auto"}
            lang={props.lang}
            dangerouslySetInnerHTML={{ __html: preview }}
          />
        </>
      )}
      {problem && <p className="mt-1 text-xs text-red-400">{problem}</p>}
    </div>
  );
}
