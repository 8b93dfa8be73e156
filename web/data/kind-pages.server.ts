/**
 * What the shared public pages of a kind show (`routes/public/kind-list.tsx`, `kind-item.tsx`; issue #27 item
 * 1): a kind without pages of its own (`views`) is listed and shown from its description alone. Each field is
 * given with its type, so the browser formats it without carrying the content model.
 */
import {
  CONTENT_MODEL,
  descriptionField,
  fieldsOf,
  type ContentKind,
  type ContentKindSpec,
  type ContentLocale,
  type FieldType,
} from "../../model/model.ts";
import { loadCards, loadItemView } from "./content.server.ts";
import type { ContentReader } from "../../lib/appwrite/content-store.ts";

/** A field as a generic page shows it: its name (its label is `<publicPath>.<name>`), type and value. */
export interface ShownField {
  name: string;
  type: FieldType;
  value: string;
}

/** An item as a generic card shows it. */
export interface KindCard {
  slug: string;
  title: string;
  /** The item's one- or two-sentence description (`descriptionField`), or "". */
  description: string;
  image: string | null;
  locale: ContentLocale;
  locales: ContentLocale[];
  /** Its other short fields (dates, places, URLs), in the kind's order. */
  fields: ShownField[];
}

/** An item as the generic item page shows it: its card and its sanitized body. */
export interface KindItemView extends KindCard {
  bodyHtml: string;
}

/** The types a generic page shows as a line of their own (not the title, the description, the body). */
const SHOWN: readonly FieldType[] = ["text", "date", "url"];

/** The generic card of a loaded card or item of `kind`. */
function kindCard(kind: ContentKind, item: Record<string, unknown>): KindCard {
  const spec: ContentKindSpec = CONTENT_MODEL[kind];
  const description = descriptionField(kind);
  const fields = fieldsOf(spec)
    .filter(([name, f]) => SHOWN.includes(f.type) && !f.version && name !== spec.title && name !== description)
    .filter(([name]) => typeof item[name] === "string" && item[name] !== "")
    .map(([name, f]) => ({ name, type: f.type, value: String(item[name]) }));
  return {
    slug: String(item.slug),
    title: String(item[spec.title] ?? ""),
    description: description ? String(item[description] ?? "") : "",
    image: (item.image as string | null) ?? null,
    locale: item.locale as ContentLocale,
    locales: item.locales as ContentLocale[],
    fields,
  };
}

/** `kind`'s cards in `locale`, as its list shows them (`loadCards`: own language first). */
export async function loadKindCards(kind: ContentKind, locale: ContentLocale): Promise<KindCard[]> {
  return (await loadCards(kind, locale)).map((c) => kindCard(kind, c as unknown as Record<string, unknown>));
}

/** One item of `kind` as the generic item page shows it, or null (`loadItemView`). */
export async function loadKindItem(
  kind: ContentKind,
  slug: string,
  locale: ContentLocale,
  reader?: ContentReader,
): Promise<KindItemView | null> {
  const item = await loadItemView(kind, slug, locale, reader);
  if (!item) return null;
  return { ...kindCard(kind, item as unknown as Record<string, unknown>), bodyHtml: item.bodyHtml };
}
