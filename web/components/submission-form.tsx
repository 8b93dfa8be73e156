import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { LIMITS } from "../../model/limits.ts";
import type { FieldIssue, FormKind, FormResult } from "../forms.ts";
import { HONEYPOT_FIELD } from "../honeypot.ts";
import { useHydrated, useTranslation } from "../hooks.ts";
import type { Translator } from "../i18n/t.ts";
import { CheckIcon } from "./icons.tsx";

interface FieldSpec {
  name: string;
  type: "text" | "email" | "textarea";
  autoComplete?: string;
  maxLength: number;
}

const FIELDS: Record<FormKind, FieldSpec[]> = {
  community: [
    { name: "name", type: "text", autoComplete: "name", maxLength: LIMITS.name },
    { name: "email", type: "email", autoComplete: "email", maxLength: LIMITS.email },
    { name: "interest", type: "textarea", maxLength: LIMITS.message },
  ],
  contact: [
    { name: "name", type: "text", autoComplete: "name", maxLength: LIMITS.name },
    { name: "email", type: "email", autoComplete: "email", maxLength: LIMITS.email },
    { name: "message", type: "textarea", maxLength: LIMITS.message },
  ],
};

/** Texts of each form's states (spec §4, §5, §8). */
const TEXTS = {
  community: { busy: "forms.community.submitting", invalid: "forms.community.error" },
  contact: { busy: "forms.contact.sending", invalid: "forms.contact.error" },
} as const;

const INPUT =
  "mt-2 block w-full rounded-xl border border-line bg-ink/60 px-4 py-3 text-white placeholder:text-mist/60 transition-colors focus:border-gold focus:outline-none focus:ring-2 focus:ring-gold/40 aria-[invalid=true]:border-red-400";

/**
 * The form rules (the content model's zod schemas, ~25 kB gzip) load when a visitor first uses a form, not
 * with the page.
 */
const loadRules = () => import("../forms.ts");

function issueText(t: Translator["t"], issue: FieldIssue): string {
  return t(`forms.errors.${issue.code}`, { max: issue.max });
}

/**
 * Brings a form's result box into view below the sticky header (its `scroll-mt-24`, issue 18 item 6), then
 * focuses `target`: the box itself, so screen readers read it, or the first field to correct. Scrolls only
 * when the box is not already fully in view; instantly, so no motion for those who reduce it.
 */
function reveal(box: HTMLElement | null, target: HTMLElement | null | undefined = box): void {
  box?.scrollIntoView({ block: "nearest", behavior: "instant" });
  target?.focus({ preventScroll: target === box });
}

/**
 * A visitor form posting to its page's route action (spec §4, §5). Without JavaScript it is a plain form
 * with native checks, and the server renders the outcome. With JavaScript it checks the fields first
 * (empty required fields go straight to the error state), submits in the background, shows
 * "Submitting..."/"Sending...", then the success text or the error, and is cleared on success.
 */
export function SubmissionForm({ kind, actionData }: { kind: FormKind; actionData?: FormResult }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const fetcher = useFetcher<FormResult>({ key: kind });
  const form = useRef<HTMLFormElement>(null);
  const message = useRef<HTMLDivElement>(null);
  const [checked, setChecked] = useState<FormResult | null>(null);
  const id = useId();
  const busy = fetcher.state !== "idle";
  const result: FormResult | undefined = busy ? undefined : (checked ?? fetcher.data ?? actionData);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) form.current?.reset();
    reveal(message.current);
  }, [fetcher.state, fetcher.data]);

  // Checked in the browser: the error box comes into view and the first field to correct gets focus.
  useEffect(() => {
    if (!checked || checked.ok) return;
    const first = Object.keys(checked.fieldErrors ?? {})[0];
    reveal(message.current, first ? form.current?.querySelector<HTMLElement>(`[name="${first}"]`) : undefined);
  }, [checked]);

  async function onSubmit(event: React.SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const target = event.currentTarget;
    const { formValues, validateForm } = await loadRules();
    const validated = validateForm(kind, formValues(kind, new FormData(target)));
    if (validated.ok) {
      setChecked(null);
      await fetcher.submit(target);
      return;
    }
    setChecked({ ok: false, error: "invalid", fieldErrors: validated.fieldErrors });
  }

  const fieldErrors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  // Only a page rendered by the server after a post without JavaScript refills the fields.
  const values = actionData && !actionData.ok ? actionData.values : undefined;
  // A page rendered by the server after a post without JavaScript: the browser focuses (and scrolls to) its box.
  const serverResult = !hydrated && actionData !== undefined;
  const errorText =
    result && !result.ok
      ? result.error === "invalid"
        ? t(TEXTS[kind].invalid)
        : t(`forms.errors.${result.error}`)
      : null;

  return (
    <fetcher.Form
      ref={form}
      method="post"
      noValidate={hydrated}
      onFocus={() => void loadRules()}
      onSubmit={(event) => void onSubmit(event)}
      aria-busy={busy}
      className="space-y-5 rounded-3xl border border-line bg-panel p-6 sm:p-8"
    >
      <div aria-live="polite">
        {result?.ok && (
          <div
            ref={message}
            tabIndex={-1}
            autoFocus={serverResult}
            role="status"
            className="flex scroll-mt-24 gap-3 rounded-2xl border border-emerald-400/40 bg-emerald-400/10 p-4 outline-none"
          >
            <CheckIcon className="mt-0.5 size-5 text-emerald-300" />
            <div>
              <p className="font-bold text-emerald-200">{t(`forms.${kind}.successTitle`)}</p>
              <p className="mt-1 text-sm text-emerald-100/90">{t(`forms.${kind}.successText`)}</p>
            </div>
          </div>
        )}
        {errorText && (
          <div
            ref={message}
            tabIndex={-1}
            autoFocus={serverResult}
            role="alert"
            className="scroll-mt-24 rounded-2xl border border-red-400/50 bg-red-500/10 p-4 text-sm font-semibold text-red-200 outline-none"
          >
            {errorText}
          </div>
        )}
      </div>
      {FIELDS[kind].map((field) => {
        const issue = fieldErrors[field.name];
        const inputId = `${id}-${field.name}`;
        const common = {
          id: inputId,
          name: field.name,
          required: true,
          maxLength: field.maxLength,
          "aria-invalid": issue ? true : undefined,
          "aria-describedby": issue ? `${inputId}-error` : undefined,
          defaultValue: values?.[field.name],
          className: INPUT,
        };
        return (
          <div key={field.name}>
            <label htmlFor={inputId} className="text-sm font-semibold">
              {t(`forms.${field.name}`)}
            </label>
            {field.type === "textarea" ? (
              <textarea {...common} rows={5} dir="auto" />
            ) : (
              <input
                {...common}
                type={field.type}
                autoComplete={field.autoComplete}
                dir={field.type === "email" ? "ltr" : "auto"}
              />
            )}
            {issue && (
              <p id={`${inputId}-error`} className="mt-2 text-sm text-red-300">
                {issueText(t, issue)}
              </p>
            )}
          </div>
        );
      })}
      {/* SECURITY C57: a trap for bots. No person sees it (off-screen), reaches it (tabIndex -1), hears it
          (aria-hidden) or has it filled in (autocomplete off); a submission with it filled is dropped. */}
      <div aria-hidden="true" className="sr-only">
        <label htmlFor={`${id}-${HONEYPOT_FIELD}`}>{t("forms.honeypot")}</label>
        <input
          id={`${id}-${HONEYPOT_FIELD}`}
          type="text"
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      <button
        type="submit"
        disabled={busy}
        className="inline-flex w-full items-center justify-center rounded-full bg-gold px-6 py-3 font-semibold text-ink transition-colors hover:bg-gold-soft disabled:cursor-wait disabled:opacity-70 sm:w-auto"
      >
        {busy ? t(TEXTS[kind].busy) : t(`forms.${kind}.submit`)}
      </button>
    </fetcher.Form>
  );
}
