/**
 * Latin names inside Arabic text (issue #35: «…تُقفل Clinic / Ledger الدفاتر…» broke a venture's name across
 * lines, and its neutral edges could jump sides). A name here is two to four Latin words that each start with
 * a capital or a digit (`Clinic Ledger`, `Google Play`, `Qalam Bridge 2`); one word cannot break, and an
 * English sentence quoted in Arabic (lower-case words) is left to wrap. Each such run is isolated in a `<bdi>`
 * (Unicode Bidirectional Algorithm, UAX #9 §2.7: an isolate is laid out on its own, so its direction neither
 * takes nor gives order to the Arabic around it), which the stylesheet keeps on one line.
 */

/** Two to four capitalized Latin words separated by a space or no-break space. */
const LATIN_NAME = /[A-Z][A-Za-z0-9'’.-]*(?:[ \u00A0]+[A-Z0-9][A-Za-z0-9'’.-]*){1,3}/g;

/** A piece of text: plain, or a Latin name to isolate. */
export interface TextPart {
  text: string;
  name: boolean;
}

/**
 * `text` cut into plain parts and Latin names (`name: true`), in order; joined, the parts are `text`. A name's
 * trailing full stop or hyphen stays outside it (the sentence's, not the name's).
 */
export function splitLatinNames(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(LATIN_NAME)) {
    const name = match[0].replace(/[.\-’']+$/, "");
    if (!/[ \u00A0]/.test(name)) continue; // the trimmed run is one word again
    if (match.index > at) parts.push({ text: text.slice(at, match.index), name: false });
    parts.push({ text: name, name: true });
    at = match.index + name.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), name: false });
  return parts;
}

/** Elements whose text is left as written: code keeps its own spacing and direction. */
const VERBATIM = new Set(["code", "pre", "kbd", "samp", "bdi"]);

/**
 * Sanitized HTML (`renderStoredHtml`'s output: tags well formed, `<` and `&` in text escaped) with every Latin
 * name in its text wrapped in `<bdi>`; attribute values and the text of code elements are left as they are.
 * Only for an Arabic version's body: the caller decides.
 */
export function isolateLatinNamesInHtml(html: string): string {
  const open: string[] = [];
  return html
    .split(/(<[^>]*>)/)
    .map((piece, i) => {
      if (i % 2 === 1) {
        const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)/.exec(piece);
        if (tag && VERBATIM.has(tag[2]!.toLowerCase())) {
          if (tag[1]) open.pop();
          else if (!piece.endsWith("/>")) open.push(tag[2]!);
        }
        return piece;
      }
      if (open.length > 0) return piece;
      return splitLatinNames(piece)
        .map((part) => (part.name ? `<bdi>${part.text}</bdi>` : part.text))
        .join("");
    })
    .join("");
}
