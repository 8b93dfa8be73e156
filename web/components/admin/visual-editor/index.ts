/**
 * The visual editor's chunk (issue #30 item 1): what `HtmlEditor` loads with a dynamic `import()` on the edit
 * pages only, so no other page's JavaScript holds Tiptap (scripts/bench/js-size.ts measures it).
 */
export { default as VisualEditor, type BodyImage, type VisualEditorProps } from "./visual-editor.tsx";
export { lostParts } from "./html.ts";
