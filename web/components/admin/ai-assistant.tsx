import { useState } from "react";
import { CONTENT_MODEL, type ContentKind } from "../../../model/model.ts";
import { useTranslation } from "../../hooks.ts";

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
 */
export function AiAssistant(props: {
  kind: ContentKind;
  /** Null when AI drafting is available, else the server's sentence saying it is not set up. */
  unavailable: string | null;
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

  const generate = async () => {
    if (!topic.trim()) return setMessage(emptyMessage);
    setBusy(true);
    props.onBusy?.(true);
    setMessage(null);
    setViolations([]);
    try {
      const response = await fetch("/admin/ai/draft", {
        method: "POST",
        body: new URLSearchParams({ kind: props.kind, topic }),
      });
      const body = (await response.json()) as DraftResponse;
      if (!response.ok || !body.fields) throw new Error(body.error ?? t(`admin.ai.failed${capitalized}`));
      props.onDraft(body.fields);
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
          aria-describedby={off ? `ai-off-${props.kind}` : undefined}
          className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink disabled:opacity-50"
        >
          {busy ? t("admin.ai.generating") : t(`admin.ai.generate${noun}`)}
        </button>
      </div>
      {message && <p className="mt-2 text-sm text-red-400">{message}</p>}
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
