import { useEffect, useRef, useState, type RefObject } from "react";
import { useLocation, useNavigate, useNavigation, useRevalidator } from "react-router";
import { CONTENT_MODEL, type ContentKind } from "../../../model/model.ts";
import { useLocale, useTranslation } from "../../hooks.ts";
import type { Locale } from "../../i18n/i18n.ts";
import { formatDate } from "../../../lib/text/dates.ts";
import { DEFAULT_TIME_ZONE } from "../../../lib/text/time-zone.ts";
import { unsavedKey } from "./unsaved.tsx";

/** How long after the last keystroke a draft is autosaved (ms; issue #29 item 3: "a few seconds"). */
export const AUTOSAVE_DELAY_MS = 3000;

/** The zone "Saved 10:42" is written in when the page does not say the site's (issue #29 item 2). */
export const AUTOSAVE_TIME_ZONE = DEFAULT_TIME_ZONE;

/**
 * The time of an autosave as the status shows it: hours and minutes, 24-hour, in the admin's language
 * (`formatDate`'s `time`: "10:42", the digits of the Arabic admin's other dates), in `timeZone`.
 * @param iso an ISO 8601 instant (the server's `autosaved.at`).
 * @throws {RangeError} when `timeZone` is not an IANA zone Intl knows.
 */
export function autosaveTime(iso: string, locale: Locale, timeZone: string = AUTOSAVE_TIME_ZONE): string {
  return formatDate(iso, "time", locale, timeZone);
}

/** What the autosave status line says: nothing yet, "Saving…", "Saved 10:42", or why not. */
export type AutosaveStatus =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  /** `stopped`: someone else's newer save, or the item is no longer a draft: no more autosaves on this page. */
  | { kind: "failed"; text: string; whole: boolean; stopped: boolean };

/** What the autosave endpoint answers (`web/routes/resources/admin-autosave.ts`). */
interface Answer {
  autosaved?: { id: string; at: string };
  errors?: Record<string, string>;
  formError?: string | null;
  conflict?: unknown;
  notDraft?: boolean;
}

const same = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys({ ...a, ...b }).every((k) => (a[k] ?? "") === (b[k] ?? ""));

/**
 * Autosave of a draft to the server (issue #29 item 3). Once the editor has typed in the form (an `input` or
 * `change` event: restored or AI-filled values alone are never sent), its text fields are posted
 * `AUTOSAVE_DELAY_MS` after the last change to `/admin/autosave` (the edit form's own action with
 * `intent=autosave`), one request at a time; files are left for Save. Only while `enabled` (the item is a
 * draft, or new, and the user may change it). A new item is sent only once the form is valid in the browser
 * (its required fields filled): the server creates it as a draft, and the page moves to its edit URL. An
 * answer of 409 (someone else saved a newer version, or the item is no longer a draft) stops autosave on
 * this page and says why; Save still works as before.
 * @returns the status to show and the values last saved (the leave guard's "nothing unsaved").
 */
export function useAutosave(props: {
  kind: ContentKind;
  itemId: string | undefined;
  enabled: boolean;
  values: Record<string, string>;
  opened: Record<string, string>;
  formRef: RefObject<HTMLFormElement | null>;
  /** Called before the page moves to a new item's edit URL (the leave guard must not ask). */
  beforeMove: () => void;
}): { status: AutosaveStatus; saved: Record<string, string> | null } {
  const { kind, itemId, enabled, values, formRef } = props;
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const moved = location.state as { autosavedAt?: string } | null;
  const [status, setStatus] = useState<AutosaveStatus>(
    moved?.autosavedAt ? { kind: "saved", at: moved.autosavedAt } : { kind: "idle" },
  );
  const [saved, setSaved] = useState<Record<string, string> | null>(null);
  // A ref, not state: a re-render from the form's own input listener, before React's, would undo that input.
  const armed = useRef(false);
  const [busy, setBusy] = useState(false);
  const latest = useRef(values);
  latest.current = values;
  // A navigation (a Save, a restore) starts afresh: what the form shows is what is stored; not the move of a
  // new item to its edit page after its first autosave.
  const first = useRef(true);
  useEffect(() => {
    if (first.current || moved?.autosavedAt) {
      first.current = false;
      return;
    }
    setSaved(null);
    armed.current = false;
    setStatus({ kind: "idle" });
  }, [location.key]);
  useEffect(() => {
    const form = formRef.current;
    if (!form || !enabled) return;
    const arm = () => {
      armed.current = true;
    };
    form.addEventListener("input", arm);
    form.addEventListener("change", arm);
    return () => {
      form.removeEventListener("input", arm);
      form.removeEventListener("change", arm);
    };
  }, [formRef, enabled]);
  const stopped = status.kind === "failed" && status.stopped;
  // No autosave while a Save is on its way (it writes the same input).
  const saving = useNavigation().state !== "idle";
  useEffect(() => {
    if (!enabled || !armed.current || busy || stopped || saving || same(values, saved ?? props.opened)) return;
    const timer = setTimeout(() => void send(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled, busy, stopped, saving, values, saved, props.opened]);

  async function send() {
    const form = formRef.current;
    // A new item waits for its required fields: the browser's own validity, without showing its bubbles.
    if (!form || (!itemId && !form.matches(":valid"))) return;
    const sent = latest.current;
    const body = new FormData(form);
    for (const [name, value] of [...body]) if (typeof value !== "string") body.delete(name);
    body.set("intent", "autosave");
    const query = new URLSearchParams({ kind, ...(itemId ? { id: itemId } : {}) });
    setBusy(true);
    setStatus({ kind: "saving" });
    try {
      const response = await fetch(`/admin/autosave?${query}`, { method: "POST", body, credentials: "same-origin" });
      const answer = (await response.json().catch(() => ({}))) as Answer;
      if (response.ok && answer.autosaved) {
        setSaved(sent);
        setStatus({ kind: "saved", at: answer.autosaved.at });
        if (itemId) {
          // The form's versions (`version`, `<locale>.id|version`) become the ones just written.
          await revalidator.revalidate();
        } else {
          moveToNewItem(answer.autosaved.id, answer.autosaved.at, sent);
        }
        return;
      }
      const reason = answer.formError ?? Object.values(answer.errors ?? {})[0] ?? t("general.error");
      const stop = response.status === 409;
      // A conflict's and a refused published item's messages are whole sentences ("Not saved: changed by …").
      setStatus({ kind: "failed", text: reason, whole: stop, stopped: stop });
    } catch {
      setStatus({ kind: "failed", text: t("admin.autosave.offline"), whole: false, stopped: false });
    } finally {
      setBusy(false);
    }
  }

  /** A new item autosaved as a draft: its edit page, with anything typed since kept to be restored there. */
  function moveToNewItem(id: string, at: string, sent: Record<string, string>) {
    if (!same(latest.current, sent)) {
      localStorage.setItem(unsavedKey(kind, id), JSON.stringify({ values: latest.current, savedAt: Date.now() }));
    }
    props.beforeMove();
    const focused = document.activeElement?.id || null;
    void navigate(`/admin/${CONTENT_MODEL[kind].adminPath}/edit/${encodeURIComponent(id)}`, {
      replace: true,
      state: { autosavedAt: at, focus: focused },
    });
  }

  return { status, saved };
}

/**
 * After a new item's autosave moved the page to its edit URL: focus goes back to the field the editor was
 * typing in, caret at its end (the move must not take their place).
 */
export function useRefocusAfterMove(): void {
  const location = useLocation();
  useEffect(() => {
    const focus = (location.state as { focus?: string } | null)?.focus;
    const element = focus ? document.getElementById(focus) : null;
    if (!element) return;
    element.focus();
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      const end = element.value.length;
      element.setSelectionRange(end, end);
    }
  }, [location.key]);
}

/** The autosave status line: "Saving…", "Saved 10:42" or "Not saved: …", a polite live region. */
export function AutosaveStatusLine({
  status,
  timeZone = AUTOSAVE_TIME_ZONE,
}: {
  status: AutosaveStatus;
  timeZone?: string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  let text: string | null = null;
  if (status.kind === "saving") text = t("admin.autosave.saving");
  if (status.kind === "saved") text = t("admin.autosave.saved", { time: autosaveTime(status.at, locale, timeZone) });
  if (status.kind === "failed") text = status.whole ? status.text : t("admin.autosave.failed", { reason: status.text });
  const tone = status.kind === "failed" ? "text-red-300" : "text-mist";
  return (
    <p role="status" aria-live="polite" data-autosave={status.kind} className={`text-sm ${tone}`}>
      {status.kind === "saved" ? (
        <time dateTime={status.at} title={`${autosaveTime(status.at, locale, timeZone)} ${timeZone}`}>
          {text}
        </time>
      ) : (
        text
      )}
    </p>
  );
}
