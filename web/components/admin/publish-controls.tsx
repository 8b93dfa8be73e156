import { useEffect, useRef, useState } from "react";
import { useLocale, useTranslation } from "../../hooks.ts";
import { CONTENT_MODEL, translatedFields, type ContentKind } from "../../../model/model.ts";
import type { ContentLocale } from "../../../model/locales.ts";
import type { ItemState } from "../../../model/lifecycle.ts";
import {
  pickedPublishTime,
  PUBLISH_CONFIRMED,
  PUBLISH_DAY,
  PUBLISH_TIME,
  PUBLISH_UNREVIEWED,
  publishedVersions,
} from "../../../lib/publish/publish-rules.ts";
import { formatDate } from "../../../lib/text/dates.ts";
import { zoneLabel } from "../../../lib/text/time-zone.ts";

const input =
  "rounded-lg border border-line bg-ink px-3 py-2 text-sm text-white focus:border-gold focus:outline-none [color-scheme:dark]";
const primary = "rounded-full bg-gold px-6 py-2.5 font-semibold text-ink disabled:opacity-60";
const secondary = "rounded-full border border-gold/60 px-5 py-2.5 text-sm font-semibold text-gold disabled:opacity-60";

/**
 * The publish time's pickers (issue #29 item 2): a date and a time to the minute, posted as `publishAt` and
 * `publishAtTime`, read by the server as wall time in the site's time zone, which is named beside them
 * ("Asia/Riyadh (UTC+03:00)", the offset at the picked time, so daylight saving time shows). Shown for a new
 * item, a draft and a scheduled one; a published item is changed by "Unpublish…" first.
 */
export function PublishTimeFields(props: {
  values: Record<string, string>;
  set: (name: string) => (value: string) => void;
  timeZone: string;
  error?: string;
}) {
  const { t } = useTranslation();
  // The pickers take the admin's language, as the form's other date input does (issue #29 item 8).
  const locale = useLocale();
  const picked = pickedPublishTime((key) => props.values[key] ?? "", props.timeZone);
  const zone = zoneLabel(props.timeZone, picked.at ?? Date.now());
  const described = props.error ? "publish-at-error" : "publish-at-hint";
  return (
    <fieldset className="min-w-0 space-y-2 border-t border-line pt-5" aria-describedby={described}>
      <legend className="text-sm font-semibold">{t("admin.publish.when")}</legend>
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-xs text-mist">
          {t("admin.publish.date")}
          <input
            type="date"
            name={PUBLISH_DAY}
            lang={locale}
            dir="ltr"
            value={props.values[PUBLISH_DAY] ?? ""}
            onChange={(e) => props.set(PUBLISH_DAY)(e.target.value)}
            aria-invalid={props.error ? true : undefined}
            className={`${input} mt-1 block`}
          />
        </label>
        <label className="text-xs text-mist">
          {t("admin.publish.time")}
          <input
            type="time"
            name={PUBLISH_TIME}
            lang={locale}
            step={60}
            dir="ltr"
            value={props.values[PUBLISH_TIME] ?? ""}
            onChange={(e) => props.set(PUBLISH_TIME)(e.target.value)}
            className={`${input} mt-1 block`}
          />
        </label>
        <span className="pb-2 text-sm" dir="ltr" data-time-zone={props.timeZone}>
          {zone}
        </span>
      </div>
      {props.error ? (
        <p id="publish-at-error" className="text-xs text-red-400">
          {props.error}
        </p>
      ) : (
        <p id="publish-at-hint" className="text-xs text-mist">
          {t("admin.publish.zoneHint", { zone })}
        </p>
      )}
    </fieldset>
  );
}

/** The language versions a form saves: the route's, and each other one with a translated field filled in. */
function savedLocales(
  kind: ContentKind,
  locale: ContentLocale,
  others: readonly ContentLocale[],
  values: Record<string, string>,
) {
  const filled = (l: ContentLocale) =>
    translatedFields(kind).some((name) => (values[`${l}.${name}`] ?? "").trim() !== "");
  return [locale, ...others.filter(filled)];
}

/** What the dialog asks to confirm. */
type Asked = "publish" | "unpublish";

/**
 * The buttons of explicit publishing (issue #29 item 1, as Ghost has them): a draft (or a new item) has
 * "Save" and "Publish…" ("Schedule…" when the picked time is in the future); a published item "Update" and,
 * apart, "Unpublish…"; a scheduled one "Update", "Change schedule…" and "Back to draft…". Saving never
 * changes visibility: "Save"/"Update" come first, so Enter in a field saves. Publish and unpublish ask in a
 * modal dialog (`showModal`: focus kept inside, Escape closes) naming the versions that go public or private
 * and when; an unreviewed translation goes public only when its box is ticked. Without JavaScript the
 * buttons submit at once and the server checks the same rule, refusing with the box shown here (`unreviewed`).
 */
export function PublishControls(props: {
  kind: ContentKind;
  state: ItemState | null;
  locale: ContentLocale;
  others: readonly ContentLocale[];
  values: Record<string, string>;
  timeZone: string;
  disabled: boolean;
  saving: boolean;
  /** The versions a refused publish held back (the server's answer without the dialog). */
  unreviewed?: readonly string[];
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const dialog = useRef<HTMLDialogElement>(null);
  const [asked, setAsked] = useState<Asked | null>(null);
  const [withUnreviewed, setWithUnreviewed] = useState(false);
  useEffect(() => {
    if (asked && !dialog.current?.open) dialog.current?.showModal();
    if (!asked && dialog.current?.open) dialog.current.close();
  }, [asked]);
  // The form's data is taken when it is submitted: the dialog closes once the save is under way.
  useEffect(() => {
    if (props.saving) setAsked(null);
  }, [props.saving]);
  const picked = pickedPublishTime((key) => props.values[key] ?? "", props.timeZone).at ?? null;
  const future = picked !== null && Date.parse(picked) > Date.now();
  const saved = savedLocales(props.kind, props.locale, props.others, props.values);
  const get = (key: string) => props.values[key] ?? "";
  const choice = publishedVersions(get, saved, withUnreviewed);
  const names = (list: readonly string[]) =>
    list.map((l) => t(`admin.languages.${l}`)).join(locale === "ar" ? "، " : ", ");
  const name = props.values[CONTENT_MODEL[props.kind].title]?.trim() || t("admin.publish.untitled");
  const live = props.state === "published" || props.state === "scheduled";
  const ask = (what: Asked) => (event: React.MouseEvent) => {
    event.preventDefault(); // with JavaScript the dialog asks first; without it the button submits
    setWithUnreviewed(false);
    setAsked(what);
  };
  const busy = props.disabled || props.saving;
  const publishLabel = props.state === "scheduled" ? "changeSchedule" : future ? "schedule" : "publish";
  const pending = publishedVersions(get, saved, false).held;
  return (
    <>
      {props.unreviewed && props.unreviewed.length > 0 && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name={PUBLISH_UNREVIEWED} />
          {t("admin.publish.publishUnreviewed")}
        </label>
      )}
      <div className="flex flex-wrap items-center gap-3" data-publish-state={props.state ?? "new"}>
        <button type="submit" name="intent" value="save" disabled={busy} className={primary}>
          {props.saving ? t("admin.saving") : live ? t("admin.publish.update") : t("admin.publish.save")}
        </button>
        {props.state !== "published" && (
          <button
            type="submit"
            name="intent"
            value="publish"
            disabled={busy}
            onClick={ask("publish")}
            className={secondary}
          >
            {t(`admin.publish.${publishLabel}`)}
          </button>
        )}
        {live && (
          <button
            type="submit"
            name="intent"
            value="unpublish"
            disabled={busy}
            onClick={ask("unpublish")}
            className={`${secondary} ms-auto border-red-400/60 text-red-300`}
          >
            {props.state === "scheduled" ? t("admin.publish.backToDraft") : t("admin.publish.unpublish")}
          </button>
        )}
      </div>
      <dialog
        ref={dialog}
        onClose={() => setAsked(null)}
        aria-labelledby="publish-dialog-title"
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-line bg-panel p-6 text-white backdrop:bg-black/70"
      >
        {asked && (
          <>
            <h2 id="publish-dialog-title" className="text-lg font-bold" dir="auto">
              {t(`admin.publish.${asked === "unpublish" ? "unpublish" : future ? "schedule" : "publish"}Title`, {
                name,
              })}
            </h2>
            <p className="mt-3 text-sm" data-dialog-versions>
              {asked === "unpublish"
                ? t("admin.publish.goesPrivate", { versions: names(saved) })
                : future
                  ? t("admin.publish.goesPublicAt", {
                      date: formatDate(picked, "moment", locale, props.timeZone),
                      versions: names(choice.publish.length ? choice.publish : saved),
                    })
                  : t("admin.publish.goesPublicNow", {
                      versions: names(choice.publish.length ? choice.publish : saved),
                    })}
            </p>
            {asked === "publish" && pending.length > 0 && (
              <div className="mt-3 rounded-lg border border-amber-500/50 bg-amber-500/10 p-3 text-sm">
                <p>{t("admin.publish.unreviewed", { versions: names(pending) })}</p>
                <label className="mt-2 flex items-center gap-2">
                  <input
                    type="checkbox"
                    name={PUBLISH_UNREVIEWED}
                    checked={withUnreviewed}
                    onChange={(e) => setWithUnreviewed(e.target.checked)}
                  />
                  {t("admin.publish.publishUnreviewed")}
                </label>
                {choice.publish.length === 0 && (
                  <p className="mt-2 text-red-300">{t("admin.publish.nothingReviewed")}</p>
                )}
              </div>
            )}
            {asked === "publish" && <input type="hidden" name={PUBLISH_CONFIRMED} value="on" />}
            <div className="mt-6 flex flex-wrap justify-end gap-3">
              <button
                type="button"
                onClick={() => setAsked(null)}
                className="rounded-full border border-line px-4 py-2 text-sm"
              >
                {t("admin.publish.cancel")}
              </button>
              <button
                type="submit"
                name="intent"
                value={asked}
                disabled={busy || (asked === "publish" && choice.publish.length === 0)}
                className={asked === "unpublish" ? "rounded-full bg-red-600 px-4 py-2 text-sm font-semibold" : primary}
              >
                {t(
                  `admin.publish.${asked === "unpublish" ? "confirmUnpublish" : future ? "confirmSchedule" : "confirmPublish"}`,
                )}
              </button>
            </div>
          </>
        )}
      </dialog>
    </>
  );
}
