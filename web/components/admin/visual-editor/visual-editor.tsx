import { EditorContent, useEditor } from "@tiptap/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { editorExtensions } from "./extensions.ts";
import { finishHtml } from "./html.ts";
import { LinkDialog } from "./link-dialog.tsx";
import { cleanPastedHtml } from "./paste.ts";
import { Toolbar } from "./toolbar.tsx";

/** An image to put in a body: its `/media/<id>` (or other allowed) URL, its alt text and pixel size. */
export interface BodyImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** The props of {@link VisualEditor}. */
export interface VisualEditorProps {
  /** The body's HTML as the form holds it (the field's value). */
  value: string;
  /** Called with the HTML the site stores (`finishHtml`) after each change the author makes. */
  onChange: (html: string) => void;
  /** The id of the field's label (the editing area is labelled by it). */
  labelledBy: string;
  /** The id of the editing area (the toolbar controls it). */
  id: string;
  /** The language version's direction (Arabic `rtl`) and language: blocks run against it get `dir="auto"`. */
  dir?: "ltr" | "rtl";
  lang?: string;
  /**
   * Asks the page for an image (the media library's picker); the page calls `insert` with the chosen one.
   * Without it the toolbar has no image button (images already in a body are kept and shown).
   */
  onRequestImage?: (insert: (image: BodyImage) => void) => void;
}

/**
 * The visual body editor (issue #30 item 1; docs/decisions/0020-visual-editor.md): Tiptap on the schema of
 * `extensions.ts`, a toolbar, the link dialog, Markdown shortcuts as one types, pasted HTML cleaned
 * (`cleanPastedHtml`), each block in its own text's direction and Arabic versions in the site's Arabic
 * reading face (`.prose-body:lang(ar)`). It changes the field's value only when the author edits, so
 * opening a body never marks the form changed. Loaded on the edit pages only, by `HtmlEditor` (dynamic
 * import): default export of its chunk.
 */
export default function VisualEditor(props: VisualEditorProps) {
  const base = props.dir === "rtl" ? "rtl" : "ltr";
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkHref, setLinkHref] = useState("");
  const written = useRef(props.value);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const openLink = useRef<() => void>(() => {});
  const extensions = useMemo(() => editorExtensions({ onLinkShortcut: () => openLink.current() }), []);

  const editor = useEditor({
    extensions,
    content: props.value,
    immediatelyRender: true,
    // The site's CSP allows no inline <style>: ProseMirror's rules are in app.css (`.visual-body`).
    injectCSS: false,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        id: props.id,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": props.labelledBy,
        dir: base,
        ...(props.lang ? { lang: props.lang } : {}),
        class:
          "prose-body visual-body min-h-60 rounded-b-lg border border-line bg-ink p-4 focus:outline-none focus-visible:ring-2 focus-visible:ring-gold/70",
      },
      transformPastedHTML: cleanPastedHtml,
    },
    onUpdate: ({ editor: current }) => {
      const html = finishHtml(current.getHTML(), base);
      written.current = html;
      onChange.current(html);
    },
  });

  // A value set from outside (Format, "Translate with AI", a refused save) replaces the document.
  useEffect(() => {
    if (props.value !== written.current) {
      written.current = props.value;
      editor.commands.setContent(props.value, { emitUpdate: false });
    }
  }, [props.value, editor]);

  openLink.current = () => {
    setLinkHref((editor.getAttributes("link").href as string | undefined) ?? "");
    setLinkOpen(true);
  };
  const closeLink = () => {
    setLinkOpen(false);
    editor.commands.focus();
  };

  return (
    <div>
      <Toolbar
        editor={editor}
        controls={props.id}
        onLink={() => openLink.current()}
        onImage={
          props.onRequestImage &&
          (() =>
            props.onRequestImage?.((image) => {
              editor.chain().focus().setImage(image).run();
            }))
        }
      />
      <EditorContent editor={editor} />
      <LinkDialog
        open={linkOpen}
        initial={linkHref}
        onClose={closeLink}
        onRemove={() => {
          editor.chain().focus().extendMarkRange("link").unsetLink().run();
          setLinkOpen(false);
        }}
        onApply={(href) => {
          const chain = editor.chain().focus();
          if (editor.state.selection.empty && !editor.isActive("link")) {
            chain.insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] }).run();
          } else {
            chain.extendMarkRange("link").setLink({ href }).run();
          }
          setLinkOpen(false);
        }}
      />
    </div>
  );
}
