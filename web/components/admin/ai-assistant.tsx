import { useState } from "react";
import { CONTENT_MODEL, translatedFields, type ContentKind, type ContentLocale } from "../../../model/model.ts";
import { useTranslation } from "../../hooks.ts";
import { useAiReplace } from "./ai-replace.tsx";

/** What `/admin/ai/draft` answers. */
export interface DraftResponse {
  fields?: Record<string, string>;
  violations?: string[];
  error?: string;
}

/**
 * The AI assistant box of the admin forms (spec §2, §5): a topic input and a Generate button, disabled with
 * an empty topic or while generating; errors and unmet content rules are shown. When AI is not set up, the
 * controls stay in place, disabled, with a sentence an editor understands (issue #17 item 4). Drafting runs on the server (`/admin/ai/draft`); the key never reaches the browser.
 * It drafts the language version of the tab the editor is on (`locale`, issue #29 item 6: an Arabic topic on
 * the العربية tab drafts the Arabic version), asks before replacing fields already written and can be undone
 * once (`useAiReplace`); its messages, failures and unmet rules are in the admin's language.
 */
export function AiAssistant(props: {
  kind: ContentKind;
  /** Null when AI drafting is available, else the server's sentence saying it is not set up. */
  unavailable: string | null;
  /** The language version drafted (the selected tab) and the route's (whose keys have no prefix). */
  locale: ContentLocale;
  routeLocale: ContentLocale;
  values: Record<string, string>;
  setValues: (update: (values: Record<string, string>) => Record<string, string>) => void;
  /** Writes a draft, by form key, into the form. */
  onDraft: (fields: Record<string, string>) => void;
  onBusy?: (busy: boolean) => void;
}) {
  const { t } = useTranslation();
  const [topic, setTopic] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [violations, setViolations] = useState<string[]>([]);
  const draftNoun = CONTENT_MODEL[props.kind].draftNoun;
  const noun = draftNoun.charAt(0).toUpperCase() + draftNoun.slice(1);
  const capitalized = props.kind.charAt(0).toUpperCase() + props.kind.slice(1);
  const label = t(`admin.ai.${props.kind}Topic`);
  const emptyMessage = t(`admin.ai.topicRequired${capitalized}`);
  const off = props.unavailable !== null;
  const replace = useAiReplace(props.values, props.setValues);
  const language = t(`admin.languages.inSentence.${props.locale}`);

  const generate = async () => {
    if (!topic.trim()) return setMessage(emptyMessage);
    setBusy(true);
    props.onBusy?.(true);
    setMessage(null);
    setViolations([]);
    try {
      const response = await fetch("/admin/ai/draft", {
        method: "POST",
        body: new URLSearchParams({ kind: props.kind, topic, locale: props.locale }),
      });
      const body = (await response.json().catch(() => ({}))) as DraftResponse;
      if (!response.ok || !body.fields) throw new Error(body.error ?? t(`admin.ai.failed${capitalized}`));
      // The version's translated fields under its keys; the shared ones (the slug) as they are.
      const names = translatedFields(props.kind);
      const keyOf = (name: string) =>
        names.includes(name) && props.locale !== props.routeLocale ? `${props.locale}.${name}` : name;
      const next = Object.fromEntries(Object.entries(body.fields).map(([name, value]) => [keyOf(name), value]));
      const version = props.locale !== props.routeLocale ? props.locale : null;
      // A reviewed translation replaced by a draft is no longer a reviewed one (nor a translation).
      const reviewed = Boolean(
        version && props.values[`${version}.sourceLocale`] && props.values[`${version}.wasReviewed`] === "on",
      );
      if (version) Object.assign(next, { [`${version}.reviewed`]: "", [`${version}.drafted`]: "" });
      replace.offer({
        kind: props.kind,
        locale: props.locale,
        routeLocale: props.routeLocale,
        next,
        reviewed,
        apply: () => props.onDraft(next),
      });
      setViolations(body.violations ?? []);
    } catch (error) {
      setMessage((error as Error).message);
    } finally {
      setBusy(false);
      props.onBusy?.(false);
    }
  };

  return (
    <section aria-labelledby={`ai-${props.kind}`} className="rounded-2xl border border-gold/40 bg-gold/5 p-5">
      <h2 id={`ai-${props.kind}`} className="font-semibold text-gold">
        {t(`admin.ai.${props.kind}Title`)}
      </h2>
      {props.unavailable !== null && (
        <p id={`ai-off-${props.kind}`} className="mt-2 text-sm text-mist">
          {props.unavailable}
        </p>
      )}
      <div className="mt-3 flex flex-col gap-3 sm:flex-row">
        <label className="sr-only" htmlFor={`ai-topic-${props.kind}`}>
          {label}
        </label>
        <input
          id={`ai-topic-${props.kind}`}
          dir="auto"
          value={topic}
          onChange={(e) => setTopic(e.target.value)}
          placeholder={label}
          disabled={off}
          aria-describedby={off ? `ai-off-${props.kind}` : undefined}
          className="flex-1 rounded-lg border border-line bg-ink px-3 py-2 text-sm disabled:opacity-50"
        />
        <button
          type="button"
          onClick={generate}
          disabled={off || busy || !topic.trim()}
          aria-describedby={off ? `ai-off-${props.kind}` : `ai-into-${props.kind}`}
          className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink disabled:opacity-50"
        >
          {busy ? t("admin.ai.generating") : t(`admin.ai.generate${noun}`)}
        </button>
      </div>
      <p id={`ai-into-${props.kind}`} className="mt-1 text-xs text-mist">
        {t("admin.ai.draftInto", { language })}
      </p>
      {/* Announced: the editor's eyes may be on the fields. */}
      {message && (
        <p role="alert" className="mt-2 text-sm text-red-400">
          {message}
        </p>
      )}
      {replace.ui}
      {violations.length > 0 && (
        <div className="mt-2 text-sm text-amber-300">
          <p>{t("admin.ai.rulesUnmet")}</p>
          <ul className="list-disc ps-5">
            {violations.map((v) => (
              <li key={v}>{v}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
