import { wordDiff } from "../../../lib/text/word-diff.ts";
import type { ContentKind, ContentLocale } from "../../../model/model.ts";
import { directionOf } from "../../i18n/i18n.ts";
import { dayText, isDateField } from "../../i18n/history-dates.ts";

/**
 * The word-level difference of one field, `before` → `after` (issue #29 items 4 and 5): removed words struck
 * through, added ones underlined, words cut by `Intl.Segmenter` in the version's language (`wordDiff`), so an
 * Arabic word is marked whole, never letter by letter; a date field shows both days as dates ("26 Nov 2026 →
 * 1 Dec 2026"), never raw ISO. The text runs in the version's direction (Arabic right-to-left).
 */
export function FieldDiff(props: {
  kind: ContentKind;
  name: string;
  label: string;
  before: string;
  after: string;
  /** The language of the version the field belongs to (its text's words and direction). */
  textLocale: ContentLocale;
  /** The admin's language (the dates). */
  locale: string;
}) {
  const { kind, name, before, after, textLocale, locale } = props;
  const date = isDateField(kind, name);
  return (
    <div className="mt-3" data-field-diff={name}>
      <p className="text-xs font-semibold text-mist">{props.label}</p>
      {date ? (
        <p className="mt-1 rounded border border-line p-2 text-xs">
          <del className="bg-red-500/20 text-red-200">{dayText(before, locale)}</del>
          <span aria-hidden className="mx-2 inline-block rtl:-scale-x-100">
            →
          </span>
          <ins className="bg-emerald-500/20 text-emerald-200">{dayText(after, locale)}</ins>
        </p>
      ) : (
        <p
          dir={directionOf(textLocale)}
          lang={textLocale}
          className="mt-1 whitespace-pre-wrap break-words rounded border border-line p-2 font-mono text-xs"
        >
          <WordDiffText before={before} after={after} textLocale={textLocale} />
        </p>
      )}
    </div>
  );
}

/** The runs of `wordDiff(before, after)` as `<del>`, `<ins>` and plain text. */
export function WordDiffText(props: { before: string; after: string; textLocale: ContentLocale }) {
  return (
    <>
      {wordDiff(props.before, props.after, props.textLocale).map((part, i) =>
        part.kind === "removed" ? (
          <del key={i} className="bg-red-500/20 text-red-200">
            {part.text}
          </del>
        ) : part.kind === "added" ? (
          <ins key={i} className="bg-emerald-500/20 text-emerald-200">
            {part.text}
          </ins>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
