/**
 * Content negotiation and validators, as the site's responses use them (RFC 9110 §12.5 and §13.1.2).
 */

/**
 * True when a header such as `Accept` or `Accept-Encoding` lists one of `names` (lower case) with a non-zero
 * quality (RFC 9110 §12.4.2: `q=0` means "not acceptable").
 */
export function acceptsAny(headerValue: string | null | undefined, names: readonly string[]): boolean {
  if (!headerValue) return false;
  return headerValue.split(",").some((item) => {
    const [name, ...parameters] = item.split(";").map((part) => part.trim().toLowerCase());
    if (!names.includes(name!)) return false;
    const q = parameters.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** True when an `If-None-Match` value lists `etag` or `*`, compared weakly (RFC 9110 §13.1.2 "If-None-Match"). */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => opaque(tag) === "*" || opaque(tag) === opaque(etag));
}
