/**
 * The publishing part of the admin's save (issue #29 items 1 and 2): the publish time the form picked, read
 * in the site's time zone; which language versions a publish makes public (an unreviewed translation only
 * when the editor confirmed it in the dialog, checked again here since a form can be sent without the
 * dialog: without JavaScript, or forged); and the flash that names what happened, to which versions, when.
 */
import type { Models } from "node-appwrite";
import type { SaveIntent } from "../../server/admin/content.ts";
import {
  pickedPublishTime,
  PUBLISH_CONFIRMED,
  PUBLISH_DAY,
  PUBLISH_TIME,
  PUBLISH_UNREVIEWED,
  publishedVersions,
  type PublishTimeError,
} from "../../lib/publish/publish-rules.ts";
import { wallTimeOf } from "../../lib/text/time-zone.ts";
import { dateField, PUBLISH_AT_COLUMN, stateOf, type ItemState } from "../../model/lifecycle.ts";
import { CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import type { ContentLocale } from "../../model/locales.ts";
import { getI18n } from "../i18n/catalog.server.ts";
import type { Locale } from "../i18n/i18n.ts";
import { versionNames, type FlashEvent } from "./admin-flash.server.ts";

/** The publish time's fields as typed, to give back with a refused save. */
export function postedPublishFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of [PUBLISH_DAY, PUBLISH_TIME]) if (form.has(key)) out[key] = String(form.get(key));
  return out;
}

/**
 * The publish time `form` picked (`publishAt` day and `publishAtTime`, wall time in `zone`) as a UTC instant;
 * null when the day is empty (publish now), undefined when the form has no such field (the stored one is
 * kept). When a post is published or scheduled at a picked time, its publication date (`publishedDate`, the
 * date the site shows) becomes that time's day in `zone`: the form is changed before it is validated.
 */
export function postedPublishTime(
  kind: ContentKind,
  form: FormData,
  intent: SaveIntent,
  zone: string,
): { publishAt: string | null | undefined; error?: PublishTimeError } {
  if (!form.has(PUBLISH_DAY)) return { publishAt: undefined };
  const picked = pickedPublishTime((key) => String(form.get(key) ?? ""), zone);
  if (picked.error) return { publishAt: undefined, error: picked.error };
  const own = dateField(kind);
  if (own && intent === "publish" && picked.at) form.set(own, wallTimeOf(picked.at, zone).slice(0, 10));
  return { publishAt: picked.at };
}

/** What a save does to each version: the intent per locale, the versions held back, whether it is refused. */
export interface PublishChoice {
  intentOf: (locale: ContentLocale) => SaveIntent;
  /** The unreviewed translations this publish leaves as they are. */
  held: ContentLocale[];
  /** Refused: a publish that would hold a version back without the editor having seen the dialog, or publish none. */
  refused: boolean;
}

/**
 * Which versions a save publishes: every one, but for `publish` an unreviewed translation only with the
 * dialog's "publish it too" box (`publishUnreviewed`); without it the others go public when the dialog was
 * confirmed (`publishConfirmed`), else (no dialog: no JavaScript, a forged form) the save is refused, as it is
 * when no version at all would go public.
 * @param locales the versions the form saves, the route's first.
 */
export function publishChoice(form: FormData, intent: SaveIntent, locales: readonly ContentLocale[]): PublishChoice {
  const get = (key: string) => String(form.get(key) ?? "");
  if (intent !== "publish") return { intentOf: () => intent, held: [], refused: false };
  const { publish, held } = publishedVersions(get, locales, get(PUBLISH_UNREVIEWED) === "on");
  const refused = held.length > 0 && (get(PUBLISH_CONFIRMED) !== "on" || publish.length === 0);
  return { intentOf: (l) => (held.includes(l) ? "save" : "publish"), held, refused };
}

/** The refusal of a publish that would make unreviewed translations public unconfirmed, in `locale`. */
export function unreviewedRefusal(locale: Locale, held: readonly ContentLocale[]): string {
  return getI18n(locale).t("admin.publish.unreviewedRefused", { versions: versionNames(locale, held) });
}

/**
 * The flash of a save (issue #29): `written` the versions as written (the route's first), `before` the route
 * version's state before the save (null for a new item). A publish names the versions that went public (or
 * were scheduled, with the time in `zone`) and the ones held back; a save says "Saved" (or "Created" for a new
 * item) and never a change of state; an unpublish says the item is a draft.
 */
export function publishFlash(
  kind: ContentKind,
  written: ReadonlyMap<ContentLocale, Models.DefaultRow>,
  intent: SaveIntent,
  before: ItemState | null,
  context: { held: readonly ContentLocale[]; zone: string },
): FlashEvent {
  const rows = [...written.values()];
  const first = rows[0]!;
  const name = String(first[CONTENT_MODEL[kind].title] ?? "");
  if (intent === "unpublish") return { event: "unpublished", name };
  if (intent === "save") return { event: before === null ? "created" : "saved", name };
  const out = [...written].filter(([l]) => !context.held.includes(l));
  const shown = out[0]?.[1] ?? first;
  const versions = out.map(([l]) => l);
  const held = [...context.held];
  if (stateOf(shown) === "scheduled") {
    const date = String(shown[PUBLISH_AT_COLUMN] ?? new Date().toISOString());
    return { event: "scheduled", name, date, zone: context.zone, versions, held };
  }
  return { event: "published", name, versions, held };
}
