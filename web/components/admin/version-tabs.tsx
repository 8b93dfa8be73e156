import { Fragment, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "../../hooks.ts";
import {
  CONTENT_LOCALES,
  CONTENT_MODEL,
  translatedFields,
  type ContentKind,
  type ContentKindSpec,
  type ContentLocale,
} from "../../../model/model.ts";
import type { TranslationState } from "../../../lib/translate/status.ts";
import { Field, TextArea } from "./fields.tsx";
import { HtmlEditor } from "./html-editor.tsx";
import { MediaPicker } from "./media-picker.tsx";
import type { BodyImage } from "./visual-editor/visual-editor.tsx";
import { isShortField } from "./kind-fields.tsx";
import { fieldLabelKey } from "../../i18n/admin-labels.ts";
import { TranslationBadge } from "./item-list.tsx";
import { directionOf } from "../../i18n/i18n.ts";
import { useTabList } from "../tab-list.ts";
import { useAiReplace } from "./ai-replace.tsx";
import { useErrorTab } from "./error-tab.ts";

/** What the form knows of one of the item's versions in the other locales (`loadOtherVersions`). */
export interface OtherVersionProps {
  locale: ContentLocale;
  id: string | null;
  version: string | null;
  state: TranslationState;
}

/** The rows of a kind's body text area (spec §2: a case study is shorter than an article). */

/**
 * The language versions of an item's form (issue #15 item 6; issue #27 item 2: one tab per locale of the
 * table, English | العربية today; `useTabList`: arrow keys move in the reading direction, Home/End jump, only
 * the chosen tab is in the tab order), each panel with that version's translated fields (`translatedFields`),
 * right-to-left ones `dir="rtl"` whatever the admin's language. The route's version posts its fields under
 * their names and its locale as `locale`, each other version as `<locale>.<field>` with `<locale>.id` and
 * `<locale>.version`; every panel is always in the form (a hidden panel's fields are posted too). A
 * translation has a "Reviewed" box; "Translate with AI" drafts the other version from this one on the server
 * (`/admin/ai/translate`), disabled with `aiUnavailable`'s sentence when the site has no Gemini key.
 */
export function VersionTabs(props: {
  kind: ContentKind;
  /** The locale of the route's document (its fields have no prefix). */
  locale: ContentLocale;
  /** The versions in the table's other locales, in its order. */
  others: OtherVersionProps[];
  /** The other versions' `$updatedAt` a refused save answered with (a deliberate overwrite), by locale, if any. */
  otherVersions?: Partial<Record<string, string | null>>;
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
  set: (name: string) => (value: string) => void;
  setTitle: (value: string) => void;
  setValues: (update: (values: Record<string, string>) => Record<string, string>) => void;
  aiUnavailable: string | null;
  onBusy: (busy: boolean) => void;
  /** The tab shown, when the form keeps it (AI drafting fills it, issue #29 item 6); else kept here. */
  selected?: ContentLocale;
  onSelect?: (locale: ContentLocale) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [own, setOwn] = useState<ContentLocale>(props.locale);
  const selected = props.selected ?? own;
  const setSelected = (locale: ContentLocale) => {
    setOwn(locale);
    props.onSelect?.(locale);
  };
  const root = useRef<HTMLDivElement>(null);
  const replace = useAiReplace(props.values, props.setValues);
  const [busy, setBusy] = useState(false);
  // The media library's picker, open for the body editor that asked (issue #30 item 3): it inserts there.
  const [picker, setPicker] = useState<{ locale: ContentLocale; insert: (image: BodyImage) => void } | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean; violations: string[] } | null>(null);
  const tabList = useTabList(CONTENT_LOCALES.length, CONTENT_LOCALES.indexOf(selected), (index) =>
    setSelected(CONTENT_LOCALES[index]!),
  );
  const spec: ContentKindSpec = CONTENT_MODEL[props.kind];
  const names = translatedFields(props.kind);
  const key = (locale: ContentLocale, name: string) => (locale === props.locale ? name : `${locale}.${name}`);
  // A tab names its language in that language (English | العربية); a sentence names it in the admin's.
  const language = (locale: ContentLocale) => t(`admin.languages.${locale}`);
  const inSentence = (locale: ContentLocale) => t(`admin.languages.inSentence.${locale}`);
  const aiOff = props.aiUnavailable !== null;
  // A refused save opens the tab with errors and focuses its first invalid field (issue #29 item 8).
  useErrorTab({ kind: props.kind, errors: props.errors, routeLocale: props.locale, selected, setSelected, root });

  // What "Translate with AI" in a panel drafts: from the route's version, the first other version still missing
  // or stale (else the first other); from another version, the route's (with two locales: the other one).
  const targetOf = (from: ContentLocale): ContentLocale => {
    if (from !== props.locale) return props.locale;
    const pending = props.others.find((o) => o.state === "missing" || o.state === "stale");
    return (pending ?? props.others[0])?.locale ?? props.locale;
  };

  const translate = async (from: ContentLocale) => {
    const to = targetOf(from);
    setMessage(null);
    if (names.some((n) => !props.values[key(from, n)]?.trim())) {
      setMessage({
        text: t("admin.languages.sourceRequired", { from: inSentence(from) }),
        error: true,
        violations: [],
      });
      return;
    }
    setBusy(true);
    props.onBusy(true);
    try {
      const body = new URLSearchParams({ kind: props.kind, from, to });
      for (const n of names) body.set(n, props.values[key(from, n)] ?? "");
      const response = await fetch("/admin/ai/translate", { method: "POST", body });
      const answer = (await response.json()) as {
        fields?: Record<string, string>;
        violations?: string[];
        model?: string;
        error?: string;
      };
      if (!response.ok || !answer.fields) throw new Error(answer.error ?? t("admin.languages.translateFailed"));
      const fields = answer.fields;
      const next: Record<string, string> = {};
      for (const n of names) if (fields[n] !== undefined) next[key(to, n)] = fields[n];
      next[`${to}.sourceLocale`] = from;
      next[`${to}.model`] = answer.model ?? "";
      next[`${to}.drafted`] = "on";
      next[`${to}.reviewed`] = "";
      next[`${to}.wasReviewed`] = "";
      // A translation a person reviewed (its box was checked when the form opened, or is now) is named as such.
      const reviewed =
        Boolean(props.values[`${to}.sourceLocale`]) &&
        (props.values[`${to}.reviewed`] === "on" || props.values[`${to}.wasReviewed`] === "on");
      setSelected(to);
      // Never silently over what is written (issue #29 item 6): asked first, undone once.
      replace.offer({
        kind: props.kind,
        locale: to,
        routeLocale: props.locale,
        next,
        reviewed,
        apply: () => {
          props.setValues((v) => ({ ...v, ...next }));
          setMessage({
            text: t("admin.languages.translated", { model: answer.model ?? "" }),
            error: false,
            violations: answer.violations ?? [],
          });
        },
      });
    } catch (error) {
      setMessage({ text: (error as Error).message, error: true, violations: [] });
    } finally {
      setBusy(false);
      props.onBusy(false);
    }
  };

  const fieldsOf = (locale: ContentLocale) => {
    // Arabic right-to-left whatever the admin's language; English as the fields always were.
    const dir = directionOf(locale) === "rtl" ? "rtl" : undefined;
    return names.map((name) => {
      const k = key(locale, name);
      // The hidden panel posts its values as hidden inputs: no label to find twice, nothing the browser refuses
      // to submit unseen (the server validates both versions).
      if (locale !== selected) return <input key={k} type="hidden" name={k} value={props.values[k] ?? ""} />;
      const onChange = name === spec.title && locale === props.locale ? props.setTitle : props.set(k);
      const field = spec.fields[name]!;
      // The other version may stay empty (it is then not created): the server checks it is complete.
      const required = !field.optional && locale === props.locale;
      const common = { name: k, value: props.values[k] ?? "", error: props.errors[k], dir, lang: locale } as const;
      // The other version's labels name its language: the two panels' fields never share a name.
      const named = (text: string) => (locale === props.locale ? text : `${text} (${language(locale)})`);
      if (name === spec.body) {
        return (
          <HtmlEditor
            key={k}
            {...common}
            label={named(t(fieldLabelKey(props.kind, spec.body)))}
            rows={CONTENT_MODEL[props.kind].bodyRows}
            required={required}
            onChange={onChange}
            onRequestImage={(insert) => setPicker({ locale, insert })}
          />
        );
      }
      const label = named(t(fieldLabelKey(props.kind, name)));
      return isShortField(field) ? (
        <Field key={k} {...common} label={label} required={required} onChange={onChange} />
      ) : (
        <TextArea key={k} {...common} label={label} rows={3} required={required} onChange={onChange} />
      );
    });
  };

  return (
    <div ref={root}>
      {picker &&
        // In a portal: the picker has forms of its own (upload, search), which may not sit inside the item's
        // form; React still bubbles their submit events through this tree, so they stop here.
        createPortal(
          <div onSubmit={(event) => event.stopPropagation()}>
            <MediaPicker
              open
              lang={picker.locale}
              onInsert={(image) => {
                picker.insert(image);
                setPicker(null);
              }}
              onClose={() => setPicker(null)}
            />
          </div>,
          document.body,
        )}
      <input type="hidden" name="locale" value={props.locale} />
      {props.others.map((other) => (
        <Fragment key={other.locale}>
          <input type="hidden" name={`${other.locale}.id`} value={other.id ?? ""} />
          <input
            type="hidden"
            name={`${other.locale}.version`}
            value={props.otherVersions?.[other.locale] ?? other.version ?? ""}
          />
        </Fragment>
      ))}
      <div role="tablist" aria-label={t("admin.languages.tabs")} className="flex gap-1 border-b border-line">
        {CONTENT_LOCALES.map((locale, i) => (
          <button
            key={locale}
            {...tabList.tab(i)}
            type="button"
            lang={locale}
            onClick={() => setSelected(locale)}
            className="rounded-t-lg px-5 py-2 text-sm font-semibold text-mist aria-selected:bg-panel aria-selected:text-gold"
          >
            {language(locale)}
          </button>
        ))}
      </div>
      {replace.ui}
      {message && (
        <div role={message.error ? "alert" : "status"} className="mt-3 text-sm">
          <p className={message.error ? "text-red-400" : "text-mist"}>{message.text}</p>
          {message.violations.length > 0 && (
            <ul className="mt-1 list-disc ps-5 text-amber-300">
              {message.violations.map((v) => (
                <li key={v}>{v}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {CONTENT_LOCALES.map((locale, i) => {
        const to = targetOf(locale);
        const sourceLocale = props.values[`${locale}.sourceLocale`] ?? "";
        const state = props.others.find((o) => o.locale === locale)?.state ?? null;
        const offId = `${id}-ai-off-${locale}`;
        return (
          <div key={locale} {...tabList.panel(i)} className="space-y-5 pt-5">
            <input type="hidden" name={`${locale}.sourceLocale`} value={sourceLocale} />
            <input type="hidden" name={`${locale}.model`} value={props.values[`${locale}.model`] ?? ""} />
            <input type="hidden" name={`${locale}.drafted`} value={props.values[`${locale}.drafted`] ?? ""} />
            <input type="hidden" name={`${locale}.wasReviewed`} value={props.values[`${locale}.wasReviewed`] ?? ""} />
            {state && (
              <p className="flex items-center gap-2 text-sm text-mist">
                {t("admin.languages.translation")}
                <TranslationBadge state={state} />
              </p>
            )}
            {state === "missing" && names.every((n) => !props.values[key(locale, n)]) && (
              <p className="text-sm text-mist">{t("admin.languages.missingHint", { language: inSentence(locale) })}</p>
            )}
            {state === "stale" && sourceLocale && (
              <p className="text-sm text-amber-300">
                {t("admin.languages.stale", { from: inSentence(sourceLocale as ContentLocale) })}
              </p>
            )}
            {fieldsOf(locale)}
            {sourceLocale && sourceLocale !== locale && (
              <div>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name={`${locale}.reviewed`}
                    checked={props.values[`${locale}.reviewed`] === "on"}
                    onChange={(e) => props.set(`${locale}.reviewed`)(e.target.checked ? "on" : "")}
                    className="size-4 accent-gold"
                  />
                  {t("admin.languages.reviewed", { from: inSentence(sourceLocale as ContentLocale) })}
                </label>
                <p className="mt-1 text-xs text-mist">
                  {t("admin.languages.reviewedHint", { from: inSentence(sourceLocale as ContentLocale) })}
                </p>
              </div>
            )}
            <div>
              <button
                type="button"
                onClick={() => void translate(locale)}
                disabled={busy || aiOff}
                aria-describedby={aiOff ? offId : `${id}-ai-to-${locale}`}
                className="rounded-full border border-gold/60 px-4 py-1.5 text-sm text-gold disabled:opacity-50"
              >
                {busy ? t("admin.languages.translating") : t("admin.languages.translate")}
              </button>
              <p id={`${id}-ai-to-${locale}`} className="mt-1 text-xs text-mist">
                {t("admin.languages.translateFrom", { to: inSentence(to), from: inSentence(locale) })}
              </p>
              {aiOff && (
                <p id={offId} className="mt-1 text-sm text-mist">
                  {props.aiUnavailable}
                </p>
              )}
            </div>
          </div>
        );
      })}
    </div>
  );
}
