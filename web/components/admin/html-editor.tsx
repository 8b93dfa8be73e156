import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "../../hooks.ts";
import { TextArea } from "./fields.tsx";
import type * as Chunk from "./visual-editor/index.ts";
import type { BodyImage } from "./visual-editor/visual-editor.tsx";

type EditorChunk = typeof Chunk;
type Mode = "visual" | "html" | "preview";

/** Loads the visual editor's chunk once per page (a dynamic import: only the edit pages ever ask for it). */
let chunk: Promise<EditorChunk> | undefined;
/** The chunk once it has loaded: a field mounted later (the other language's tab) opens in it at once. */
let loaded: EditorChunk | null = null;
const loadChunk = () =>
  (chunk ??= import("./visual-editor/index.ts").then((module) => {
    loaded = module;
    return module;
  }));

/**
 * A body editor with Visual, HTML and Preview tabs (spec §2: Edit and Preview tabs, a Format button that
 * indents the HTML two spaces per nesting level in edit mode; issue #30 items 1 and 2).
 *
 * - The page renders the HTML source first (a textarea, so it works without JavaScript); once the page runs,
 *   the visual editor's chunk loads and the field opens in it, unless the author is already typing in the
 *   textarea or the body has parts the visual editor cannot keep (`lostParts`: it says which, and stays HTML).
 * - HTML: left-to-right markup, each line in its own text's direction (`unicode-bidi: plaintext`), a
 *   proportional face with the site's Arabic reading face (`.html-source`), whatever the version's language.
 * - Switching to Visual with parts it cannot keep asks first: keep the HTML, or switch and lose them.
 * - Format (server, `/admin/format`, Prettier) shows the indented HTML in the HTML tab; Preview shows the
 *   body as sanitized on the server (`/admin/preview-html`).
 * The field's value is one HTML string, posted under `name` in every mode.
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
  /** The media library's picker, for the visual editor's image button (see `VisualEditor`). */
  onRequestImage?: (insert: (image: BodyImage) => void) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const base = props.dir === "rtl" ? "rtl" : "ltr";
  // On the server and at hydration nothing is loaded: the textarea. Later mounts find the chunk loaded.
  const [editor, setEditor] = useState<EditorChunk | null>(loaded);
  const [lost, setLost] = useState<{ parts: string[]; ask: boolean } | null>(() => {
    const parts = loaded?.lostParts(props.value, base) ?? [];
    return parts.length > 0 ? { parts, ask: false } : null;
  });
  const [mode, setMode] = useState<Mode>(() => (loaded && !lost ? "visual" : "html"));
  const [preview, setPreview] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const typed = useRef(false);
  const value = useRef(props.value);
  value.current = props.value;

  useEffect(() => {
    if (editor) return;
    let live = true;
    loadChunk().then(
      (module) => {
        if (!live) return;
        setEditor(module);
        const parts = module.lostParts(value.current, base);
        if (parts.length > 0) setLost({ parts, ask: false });
        else if (!typed.current) setMode((m) => (m === "html" ? "visual" : m));
      },
      // Without the chunk (offline, a failed deploy) the HTML source stays, as without JavaScript.
      () => {},
    );
    return () => {
      live = false;
    };
    // Once per mount: the chunk is loaded at most once.
  }, []);

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
  const toVisual = (force: boolean) => {
    if (!editor) return;
    const parts = editor.lostParts(props.value, base);
    if (parts.length > 0 && !force) {
      setLost({ parts, ask: true });
      return;
    }
    setLost(null);
    setMode("visual");
  };
  const tab = (active: boolean) =>
    `rounded-t-lg px-4 py-2 text-sm ${active ? "bg-panel text-gold" : "text-mist hover:text-white"} disabled:opacity-40`;
  const labelId = `label-${props.name}`;
  const parts = lost?.parts.join(", ") ?? "";
  return (
    <div data-body-editor={editor ? mode : "loading"}>
      <label id={labelId} htmlFor={`field-${props.name}`} className="mb-1 block text-sm font-medium">
        {props.label}
      </label>
      {/* Only tabs in the tab list (axe aria-required-children): the Format button sits beside it. */}
      <div className="flex flex-wrap items-end gap-1">
        <div role="tablist" aria-label={props.label} className="flex items-end gap-1">
          <button
            type="button"
            role="tab"
            aria-selected={mode === "visual"}
            disabled={!editor}
            className={tab(mode === "visual")}
            onClick={() => toVisual(false)}
          >
            {t("admin.editor.visual")}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={mode === "html"}
            className={tab(mode === "html")}
            onClick={() => setMode("html")}
          >
            {t("admin.editor.html")}
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
        {mode !== "preview" && (
          <button
            type="button"
            disabled={busy || !props.value.trim()}
            className="ms-auto mb-1 rounded-full border border-gold/60 px-3 py-1 text-xs text-gold disabled:opacity-40"
            onClick={async () => {
              const html = await call("/admin/format");
              if (html === null) return;
              props.onChange(html);
              setMode("html");
            }}
          >
            {t("admin.format")}
          </button>
        )}
      </div>
      {lost && mode === "html" && (
        <div role={lost.ask ? "alert" : "status"} className="mb-2 rounded-lg border border-amber-300/40 p-3 text-sm">
          <p className="text-amber-300">
            {lost.ask ? t("admin.editor.lost", { parts }) : t("admin.editor.stayed", { parts })}
          </p>
          {lost.ask && (
            <div className="mt-2 flex flex-wrap gap-2">
              <button
                type="button"
                onClick={() => setLost(null)}
                className="rounded-full border border-gold/60 px-3 py-1 text-xs text-gold"
              >
                {t("admin.editor.keepHtml")}
              </button>
              <button
                type="button"
                onClick={() => toVisual(true)}
                className="rounded-full border border-line px-3 py-1 text-xs"
              >
                {t("admin.editor.switchAnyway")}
              </button>
            </div>
          )}
        </div>
      )}
      {mode === "html" && (
        <div onFocusCapture={() => (typed.current = true)}>
          <TextArea
            name={props.name}
            label={props.label}
            rows={props.rows}
            value={props.value}
            onChange={props.onChange}
            required={props.required ?? true}
            labelledBy={labelId}
            error={props.error}
            dir="ltr"
            lang={props.lang}
            className="html-source"
          />
        </div>
      )}
      {mode === "visual" && editor && (
        <>
          <input type="hidden" name={props.name} value={props.value} />
          <editor.VisualEditor
            id={`${id}-visual`}
            value={props.value}
            onChange={props.onChange}
            labelledBy={labelId}
            dir={props.dir}
            lang={props.lang}
            onRequestImage={props.onRequestImage}
          />
          {props.error && <p className="mt-1 text-xs text-red-400">{props.error}</p>}
        </>
      )}
      {mode === "preview" && (
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
