/**
 * Slugs from titles (spec §2: "URL-friendly identifier"). Latin letters lose their accents; text with no
 * Latin letters or digits (an Arabic title) never yields an empty slug: it gets a dated fallback.
 */
import { SLUG_PATTERN } from "../../model/content.ts";

/**
 * `text` as a slug (lowercase ASCII words joined by single hyphens, at most 128 chars), or
 * `<fallback>-<base36 timestamp>` when nothing Latin is left.
 */
export function slugify(text: string, fallback = "draft"): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 128)
    .replace(/-+$/, "");
  return SLUG_PATTERN.test(slug) ? slug : `${fallback}-${Date.now().toString(36)}`;
}
