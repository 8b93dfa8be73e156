/**
 * The rules of explicit publishing (issue #29 items 1 and 2), shared by the admin's dialog in the browser and
 * the server's save, which checks them again (the dialog's choice is only what the editor asked for):
 * which language versions a form saves, which of them are unreviewed translations (not published unless the
 * editor confirms it), and the publish time an editor picked, read in the site's time zone. Pure.
 */
import type { ContentLocale } from "../../model/locales.ts";
import { instantOf } from "../text/time-zone.ts";

/** Reads a posted or typed form value by key (`<locale>.<field>` for a version's), "" when absent. */
export type FormGet = (key: string) => string;

/** The form field whose box, ticked in the dialog, publishes unreviewed translations too. */
export const PUBLISH_UNREVIEWED = "publishUnreviewed";
/** Posted by the dialog's confirm button: the editor saw which versions go public (and chose). */
export const PUBLISH_CONFIRMED = "publishConfirmed";
/** The publish time's day (`YYYY-MM-DD`) and time of day (`HH:mm`) in the site's zone. */
export const PUBLISH_DAY = "publishAt";
export const PUBLISH_TIME = "publishAtTime";

/**
 * Whether the version in `locale` is an unreviewed translation: it names another version as its source
 * (`<locale>.sourceLocale`) and its "Reviewed" box (`<locale>.reviewed`) is not ticked (lib/translate/status.ts
 * calls it `unreviewed`; the CLI writes such machine drafts with `draft: true`).
 */
export function isUnreviewed(get: FormGet, locale: ContentLocale): boolean {
  const source = get(`${locale}.sourceLocale`);
  return source !== "" && source !== locale && get(`${locale}.reviewed`) !== "on";
}

/**
 * The versions a publish makes public and the ones it holds back, in the order given (the route's version
 * first): every version, unless it is an unreviewed translation and `publishUnreviewed` is false.
 */
export function publishedVersions(
  get: FormGet,
  locales: readonly ContentLocale[],
  publishUnreviewed: boolean,
): { publish: ContentLocale[]; held: ContentLocale[] } {
  const held = publishUnreviewed ? [] : locales.filter((l) => isUnreviewed(get, l));
  return { publish: locales.filter((l) => !held.includes(l)), held };
}

/** Why a picked publish time was refused: the day or the time of day is not one. */
export type PublishTimeError = "date" | "time";

/**
 * The publish time an editor picked: the day (`publishAt`, `YYYY-MM-DD`; a full wall time `YYYY-MM-DDTHH:mm`
 * is accepted too) and the time of day (`publishAtTime`, `HH:mm`, default 00:00) as wall time in `zone`,
 * turned into the UTC instant (ISO 8601) it stands for, across daylight saving time (`instantOf`).
 * @returns `{ at }` with the instant, or null when the day is empty ("now"); `{ error }` naming the part that
 * is not a day or a time.
 */
export function pickedPublishTime(
  get: FormGet,
  zone: string,
): { at: string | null; error?: undefined } | { at?: undefined; error: PublishTimeError } {
  const day = get(PUBLISH_DAY).trim();
  const time = get(PUBLISH_TIME).trim();
  if (day === "") return { at: null };
  const [datePart, timeInDay] = day.includes("T") ? day.split("T", 2) : [day, ""];
  if (!/^\d{4}-\d{2}-\d{2}$/.test(datePart!)) return { error: "date" };
  const clock = time || timeInDay || "00:00";
  if (!/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(clock)) return { error: "time" };
  try {
    return { at: instantOf(`${datePart}T${clock.slice(0, 5)}`, zone).toISOString() };
  } catch {
    return { error: "date" };
  }
}
