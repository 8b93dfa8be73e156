import { Fragment } from "react";
import { splitLatinNames } from "../../lib/html/latin-names.ts";
import { directionOf, type Locale } from "../i18n/i18n.ts";

/**
 * Text of a language version, with the Latin names inside right-to-left (Arabic) text isolated in `<bdi>` and kept on one
 * line (issue #35; `splitLatinNames`). Left-to-right text is returned as it is.
 */
export function Names({ text, lang }: { text: string; lang: Locale }) {
  if (directionOf(lang) !== "rtl") return text;
  return splitLatinNames(text).map((part, i) =>
    part.name ? <bdi key={i}>{part.text}</bdi> : <Fragment key={i}>{part.text}</Fragment>,
  );
}

/**
 * A message with one `{{placeholder}}` whose value is an element: the message is read with a marker in the
 * placeholder's place and cut there (so the translation decides the order: "By {{author}}", "بقلم {{author}}").
 * @param message `t(key, { [placeholder]: MARK })`.
 */
export function withSlot(message: string, slot: React.ReactNode) {
  const [before = "", after = ""] = message.split(MARK);
  return (
    <>
      {before}
      {slot}
      {after}
    </>
  );
}

/** The marker `withSlot` cuts a message at (a private-use character no translation holds). */
export const MARK = "\uE000";
