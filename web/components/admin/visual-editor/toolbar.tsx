import { useEditorState, type Editor } from "@tiptap/react";
import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useTranslation } from "../../../hooks.ts";

/** Small line icons (24-unit grid, drawn in the text colour); hidden from assistive technology. */
const ICONS: Record<string, ReactNode> = {
  link: <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />,
  bulletList: <path d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />,
  orderedList: <path d="M10 6h10M10 12h10M10 18h10M4 5l1.5-1V9M3.5 14.5a1.5 1.5 0 1 1 2.5 1L3.5 19H6" />,
  quote: <path d="M7 17c-2 0-3-1.5-3-4 0-3 2-6 5-7M17 17c-2 0-3-1.5-3-4 0-3 2-6 5-7" />,
  code: <path d="M9 7l-5 5 5 5M15 7l5 5-5 5" />,
  codeBlock: <path d="M4 4h16v16H4zM9 9l-2 3 2 3M15 9l2 3-2 3" />,
  image: <path d="M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15.5 9.5h.01" />,
  table: <path d="M4 5h16v14H4zM4 10h16M4 15h16M10 5v14" />,
  undo: <path d="M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3" />,
  redo: <path d="M15 14l5-5-5-5M20 9H10a6 6 0 0 0 0 12h3" />,
};

function Icon({ name }: { name: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {ICONS[name]}
    </svg>
  );
}

interface Tool {
  key: string;
  /** What the button shows: text (H2, B, I) or an icon by name. */
  face: string;
  pressed?: boolean;
  disabled?: boolean;
  shortcut?: string;
  run: () => void;
}

/**
 * The visual editor's toolbar (issue #30 item 1; WAI-ARIA APG "Toolbar"): one tab stop, arrow keys move
 * between the buttons in the reading direction, Home/End jump. Each button is named in the admin's language
 * (`aria-label`), says whether its format is on (`aria-pressed`) and its keyboard shortcut
 * (`aria-keyshortcuts`). The table buttons appear when the cursor is in a table; the image button when the
 * page gives a way to choose an image (`onImage`). It wraps on a narrow screen.
 */
export function Toolbar(props: { editor: Editor; controls: string; onLink: () => void; onImage?: () => void }) {
  const { t } = useTranslation();
  const { editor } = props;
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      link: e.isActive("link"),
      bulletList: e.isActive("bulletList"),
      orderedList: e.isActive("orderedList"),
      quote: e.isActive("blockquote"),
      code: e.isActive("code"),
      codeBlock: e.isActive("codeBlock"),
      table: e.isActive("table"),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const tools: Tool[] = [
    {
      key: "heading2",
      face: "H2",
      pressed: state.h2,
      shortcut: "Control+Alt+2",
      run: () => chain().toggleHeading({ level: 2 }).run(),
    },
    {
      key: "heading3",
      face: "H3",
      pressed: state.h3,
      shortcut: "Control+Alt+3",
      run: () => chain().toggleHeading({ level: 3 }).run(),
    },
    { key: "bold", face: "B", pressed: state.bold, shortcut: "Control+B", run: () => chain().toggleBold().run() },
    { key: "italic", face: "I", pressed: state.italic, shortcut: "Control+I", run: () => chain().toggleItalic().run() },
    { key: "link", face: "link", pressed: state.link, shortcut: "Control+K", run: props.onLink },
    {
      key: "bulletList",
      face: "bulletList",
      pressed: state.bulletList,
      shortcut: "Control+Shift+8",
      run: () => chain().toggleBulletList().run(),
    },
    {
      key: "orderedList",
      face: "orderedList",
      pressed: state.orderedList,
      shortcut: "Control+Shift+7",
      run: () => chain().toggleOrderedList().run(),
    },
    {
      key: "quote",
      face: "quote",
      pressed: state.quote,
      shortcut: "Control+Shift+B",
      run: () => chain().toggleBlockquote().run(),
    },
    { key: "code", face: "code", pressed: state.code, shortcut: "Control+E", run: () => chain().toggleCode().run() },
    { key: "codeBlock", face: "codeBlock", pressed: state.codeBlock, run: () => chain().toggleCodeBlock().run() },
    ...(props.onImage ? [{ key: "image", face: "image", run: props.onImage }] : []),
    {
      key: "table",
      face: "table",
      pressed: state.table,
      run: () => chain().insertTable({ rows: 3, cols: 2, withHeaderRow: true }).run(),
    },
    ...(state.table
      ? [
          { key: "addRow", face: "+ ―", run: () => chain().addRowAfter().run() },
          { key: "addColumn", face: "+ |", run: () => chain().addColumnAfter().run() },
          { key: "deleteRow", face: "− ―", run: () => chain().deleteRow().run() },
          { key: "deleteColumn", face: "− |", run: () => chain().deleteColumn().run() },
          { key: "deleteTable", face: "✕", run: () => chain().deleteTable().run() },
        ]
      : []),
    { key: "undo", face: "undo", disabled: !state.undo, shortcut: "Control+Z", run: () => chain().undo().run() },
    { key: "redo", face: "redo", disabled: !state.redo, shortcut: "Control+Shift+Z", run: () => chain().redo().run() },
  ];
  const [current, setCurrent] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const focusable = Math.min(current, tools.length - 1);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
    const next = rtl ? "ArrowLeft" : "ArrowRight";
    const back = rtl ? "ArrowRight" : "ArrowLeft";
    const moves: Record<string, number> = {
      [next]: focusable + 1,
      [back]: focusable - 1,
      Home: 0,
      End: tools.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const index = (target + tools.length) % tools.length;
    setCurrent(index);
    refs.current[index]?.focus();
  };

  return (
    <div
      role="toolbar"
      aria-label={t("admin.editor.toolbar")}
      aria-controls={props.controls}
      onKeyDown={onKeyDown}
      className="flex flex-wrap gap-1 rounded-t-lg border border-b-0 border-line bg-panel p-1"
    >
      {tools.map((tool, index) => (
        <button
          key={tool.key}
          ref={(element) => {
            refs.current[index] = element;
          }}
          type="button"
          tabIndex={index === focusable ? 0 : -1}
          aria-label={t(`admin.editor.${tool.key}`)}
          title={t(`admin.editor.${tool.key}`)}
          aria-pressed={tool.pressed === undefined ? undefined : tool.pressed}
          aria-keyshortcuts={tool.shortcut}
          disabled={tool.disabled}
          onFocus={() => setCurrent(index)}
          // Keep the editor's selection: the button acts on it.
          onMouseDown={(event) => event.preventDefault()}
          onClick={tool.run}
          className={`flex h-8 min-w-8 items-center justify-center rounded px-1.5 text-sm ${
            tool.face === "I" ? "italic" : tool.face === "B" ? "font-bold" : ""
          } aria-pressed:bg-gold/20 aria-pressed:text-gold hover:bg-white/10 disabled:opacity-40`}
        >
          {ICONS[tool.face] ? <Icon name={tool.face} /> : <span aria-hidden="true">{tool.face}</span>}
        </button>
      ))}
    </div>
  );
}
