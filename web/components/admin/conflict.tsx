import { useState } from "react";
import { wordDiff } from "../../../lib/text/word-diff.ts";
import { CONTENT_LOCALES, translatedFields, type ContentKind, type ContentLocale } from "../../../model/model.ts";
import { useLocale, useTranslation } from "../../hooks.ts";
import { fieldLabelKey } from "../../i18n/admin-labels.ts";
import { dayText, isDateField } from "../../i18n/history-dates.ts";
import { directionOf, isLocale } from "../../i18n/i18n.ts";

/** What a refused save's conflict says beyond the versions (`conflictAnswer` on the server). */
export interface ConflictDetails {
  /** Their item as stored now, as form values; null when the server could not read it again. */
  theirs: Record<string, string> | null;
  /** The save intent the refused save posted, posted again by "Overwrite theirs". */
  intent: string;
}

/** The theirs and intent of a refused save's answer (`actionData.conflict`), or null when it is no conflict. */
export function conflictDetailsOf(actionData: unknown): ConflictDetails | null {
  const conflict = (actionData as { conflict?: { theirs?: unknown; intent?: unknown } } | undefined)?.conflict;
  if (!conflict || typeof conflict !== "object") return null;
  const theirs = conflict.theirs;
  return {
    theirs: typeof theirs === "object" && theirs !== null ? (theirs as Record<string, string>) : null,
    intent: typeof conflict.intent === "string" ? conflict.intent : "",
  };
}

/** Form keys that are a version's translation bookkeeping, not text an editor compares. */
const PROVENANCE = new Set(["sourceLocale", "model", "reviewed", "wasReviewed", "drafted"]);

/** One field that differs: its form key, plain name, language version and both texts. */
interface Difference {
  key: string;
  name: string;
  locale: ContentLocale;
  theirs: string;
  yours: string;
}

/**
 * The fields where `theirs` and `yours` differ, in the form's order: the route version's fields (`title`), each
 * other version's (`ar.title`), the shared ones, translation bookkeeping left out. `routeLocale` is the
 * language of the unprefixed fields.
 */
export function differencesOf(
  theirs: Record<string, string>,
  yours: Record<string, string>,
  routeLocale: ContentLocale,
): Difference[] {
  const out: Difference[] = [];
  for (const [key, value] of Object.entries(theirs)) {
    const [prefix, rest] = key.includes(".") ? (key.split(".", 2) as [string, string]) : [null, key];
    if (PROVENANCE.has(rest)) continue;
    const locale = prefix && isLocale(prefix) ? prefix : routeLocale;
    if ((yours[key] ?? "") !== (value ?? ""))
      out.push({ key, name: rest, locale, theirs: value ?? "", yours: yours[key] ?? "" });
  }
  return out;
}

/** One side of a field's comparison: the text both share, and this side's own words marked. */
function Side(props: { kind: ContentKind; d: Difference; side: "theirs" | "yours"; locale: string }) {
  const { t } = useTranslation();
  const { kind, d, side } = props;
  const mark = side === "theirs" ? "removed" : "added";
  const heading = side === "theirs" ? t("admin.conflict.theirs") : t("admin.conflict.yours");
  const body = isDateField(kind, d.name) ? (
    <span>{dayText(d[side], props.locale)}</span>
  ) : (
    wordDiff(d.theirs, d.yours, d.locale)
      .filter((part) => part.kind === "same" || part.kind === mark)
      .map((part, i) =>
        part.kind === "same" ? (
          <span key={i}>{part.text}</span>
        ) : side === "theirs" ? (
          <del key={i} className="bg-red-500/20 text-red-200">
            {part.text}
          </del>
        ) : (
          <ins key={i} className="bg-emerald-500/20 text-emerald-200">
            {part.text}
          </ins>
        ),
      )
  );
  return (
    <div data-side={side} className="min-w-0">
      <p className="text-xs font-semibold text-mist">{heading}</p>
      <p
        dir={directionOf(d.locale)}
        lang={d.locale}
        className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded border border-line p-2 text-xs"
      >
        {body}
      </p>
    </div>
  );
}

/**
 * How an edit conflict is resolved on the page (issue #29 item 5): "See their version" (a disclosure, so it
 * works without JavaScript too) shows, per field that differs, their text beside yours (stacked on a phone),
 * the words only theirs has struck through and the words only yours has underlined (`wordDiff`, whole words in
 * Arabic too); "Overwrite theirs" saves your input over theirs with the button the refused save pressed (the
 * form already carries every version's current time, so it passes the first time); "Keep theirs" puts their
 * version in the form and discards yours (`onKeepTheirs`).
 */
export function ConflictPanel(props: {
  kind: ContentKind;
  details: ConflictDetails;
  values: Record<string, string>;
  routeLocale: ContentLocale;
  saving: boolean;
  onKeepTheirs: (theirs: Record<string, string>) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [open, setOpen] = useState(false);
  const { theirs } = props.details;
  const differences = theirs ? differencesOf(theirs, props.values, props.routeLocale) : [];
  const translated = new Set(translatedFields(props.kind));
  const label = (d: Difference) => {
    const text = t(fieldLabelKey(props.kind, d.name));
    // A translated field names its language version; a shared one (slug, dates) is the same in all.
    return translated.has(d.name) && CONTENT_LOCALES.length > 1
      ? `${text} (${t(`admin.languages.${d.locale}`)})`
      : text;
  };
  return (
    <div data-conflict className="space-y-3 rounded-lg border border-amber-500/50 bg-amber-500/5 p-3">
      {theirs && (
        <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary className="cursor-pointer text-sm font-semibold text-gold underline">
            {t("admin.lifecycle.seeTheirs")}
          </summary>
          {differences.length === 0 ? (
            <p className="mt-2 text-sm text-mist">{t("admin.conflict.same")}</p>
          ) : (
            <>
              <p className="mt-2 text-xs text-mist">{t("admin.conflict.legend")}</p>
              <ul className="mt-2 space-y-4">
                {differences.map((d) => (
                  <li key={d.key} data-conflict-field={d.key}>
                    <p className="text-sm font-semibold">{label(d)}</p>
                    <div className="mt-1 grid grid-cols-1 gap-3 sm:grid-cols-2">
                      <Side kind={props.kind} d={d} side="theirs" locale={locale} />
                      <Side kind={props.kind} d={d} side="yours" locale={locale} />
                    </div>
                  </li>
                ))}
              </ul>
            </>
          )}
        </details>
      )}
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          name="intent"
          value={props.details.intent || "publish"}
          disabled={props.saving}
          className="rounded-full border border-red-400/70 px-4 py-1.5 text-sm font-semibold text-red-200 disabled:opacity-60"
        >
          {t("admin.conflict.overwrite")}
        </button>
        {theirs && (
          <button
            type="button"
            disabled={props.saving}
            onClick={() => props.onKeepTheirs(theirs)}
            className="rounded-full border border-line px-4 py-1.5 text-sm disabled:opacity-60"
          >
            {t("admin.conflict.keepTheirs")}
          </button>
        )}
      </div>
    </div>
  );
}
