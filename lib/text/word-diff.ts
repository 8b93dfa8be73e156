/**
 * A word diff of two texts in any script (issue #34, `studio diff`): words are cut with `Intl.Segmenter`'s
 * word granularity (Unicode UAX #29, which handles Arabic, whose words a `\b` regular expression does not
 * see), then compared with the `diff` package's array diff.
 */
import { diffArrays } from "diff";

/** A run of the diff: text both sides share, or text only one side has. */
export interface WordChange {
  kind: "same" | "removed" | "added";
  text: string;
}

const segmenters = new Map<string, Intl.Segmenter>();

/** The words and the spaces or punctuation between them, in order (joined they give `text` back). */
export function wordTokens(text: string, locale = "en"): string[] {
  let segmenter = segmenters.get(locale);
  if (!segmenter) segmenters.set(locale, (segmenter = new Intl.Segmenter(locale, { granularity: "word" })));
  return [...segmenter.segment(text)].map((s) => s.segment);
}

/**
 * The word diff from `before` to `after`: runs of shared, removed and added text, adjacent tokens of one kind
 * merged. `locale` picks the segmenter's rules (`ar`, `en`).
 */
export function wordDiff(before: string, after: string, locale = "en"): WordChange[] {
  const changes: WordChange[] = [];
  for (const part of diffArrays(wordTokens(before, locale), wordTokens(after, locale))) {
    const kind = part.added ? "added" : part.removed ? "removed" : "same";
    const text = part.value.join("");
    const last = changes.at(-1);
    if (last?.kind === kind) last.text += text;
    else if (text) changes.push({ kind, text });
  }
  return changes;
}

/**
 * A word diff as plain text, git's `--word-diff=plain` markers: `[-removed-]{+added+}`; `color` wraps them in
 * red and green (ANSI SGR) instead, for a terminal.
 */
export function renderWordDiff(changes: readonly WordChange[], color = false): string {
  return changes
    .map((c) => {
      if (c.kind === "same") return c.text;
      if (color) return c.kind === "removed" ? `\u001b[31m\u001b[9m${c.text}\u001b[0m` : `\u001b[32m${c.text}\u001b[0m`;
      return c.kind === "removed" ? `[-${c.text}-]` : `{+${c.text}+}`;
    })
    .join("");
}
