import { useEffect, useRef, useState } from "react";
import { useBlocker, useLocation } from "react-router";
import { useTranslation } from "../../hooks.ts";

/** What is kept in the browser per item: the form's text values and when they were typed (ms since the epoch). */
interface Kept {
  values: Record<string, string>;
  savedAt: number;
}

/** The `localStorage` key of an item's unsaved input (`kind`, and its id or `new`). */
export function unsavedKey(kind: string, id: string | undefined): string {
  return `studio:unsaved:${kind}:${id ?? "new"}`;
}

function read(key: string): Kept | null {
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? "null") as Kept | null;
    return kept && typeof kept.savedAt === "number" && typeof kept.values === "object" ? kept : null;
  } catch {
    return null;
  }
}

const same = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys({ ...a, ...b }).every((k) => (a[k] ?? "") === (b[k] ?? ""));

/**
 * Nothing typed is lost (issue #16 item 5): the form's values are kept in `localStorage` under `key` while
 * they differ from what the form opened with; on the next visit (a reload, or the return after signing in
 * again when the session expired) they are put back, and leaving with unsaved changes asks first
 * (`beforeunload` for reloads and other sites, a blocker with `confirm` for links inside the admin). A submit keeps them until the page a successful save lands on (the item's edit page) clears them.
 * @returns when the input was restored (ms since the epoch) or null, and `discard`, which puts the opened
 * values back and forgets the kept ones.
 */
export function useUnsavedInput(
  key: string,
  opened: Record<string, string>,
  values: Record<string, string>,
  setValues: (values: Record<string, string>) => void,
  /** The values last autosaved to the server (issue #29 item 3): nothing is unsaved while the form has them. */
  saved: Record<string, string> | null = null,
): { restoredAt: number | null; discard: () => void; markSubmitted: () => void } {
  const { t } = useTranslation();
  const [restoredAt, setRestoredAt] = useState<number | null>(null);
  const ready = useRef(false);
  const submitted = useRef(false);
  useEffect(() => {
    const kept = read(key);
    if (kept && !same(kept.values, opened)) {
      setValues({ ...opened, ...kept.values });
      setRestoredAt(kept.savedAt);
    }
    ready.current = true;
    // Once per item, after hydration.
  }, [key]);
  const dirty = !same(values, opened) && !(saved && same(values, saved));
  // A save that lands back on this page (issue #29 item 3) or is refused: leaving asks again about new input.
  const { key: at } = useLocation();
  useEffect(() => {
    submitted.current = false;
  }, [at]);
  useEffect(() => {
    if (!ready.current) return;
    if (dirty) localStorage.setItem(key, JSON.stringify({ values, savedAt: Date.now() } satisfies Kept));
    else localStorage.removeItem(key);
  }, [key, values, dirty]);
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!dirty || submitted.current) return;
      event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
  // Leaving inside the admin (a click on Dashboard) asks too; the input stays kept either way.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !submitted.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(t("admin.lifecycle.leave"))) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  return {
    restoredAt,
    discard: () => {
      localStorage.removeItem(key);
      setValues(opened);
      setRestoredAt(null);
    },
    markSubmitted: () => {
      submitted.current = true;
      sessionStorage.setItem(`submitted:${key}`, "1");
    },
  };
}

/** Clears every item's kept input that was submitted: the lists and edit pages call it, where a save lands. */
export function useClearUnsavedOnArrival(kind: string): void {
  useEffect(() => clearSubmittedInput(kind), [kind]);
}

/**
 * Forgets the kept input of `kind`'s items (or only the one under `only`, an `unsavedKey`) whose form was
 * submitted (`markSubmitted`) since it was kept.
 */
export function clearSubmittedInput(kind: string, only?: string): void {
  for (const key of Object.keys(localStorage)) {
    if (only !== undefined && key !== only) continue;
    if (key.startsWith(`studio:unsaved:${kind}:`) && sessionStorage.getItem(`submitted:${key}`)) {
      localStorage.removeItem(key);
      sessionStorage.removeItem(`submitted:${key}`);
    }
  }
}

/** "Restored unsaved changes from 14:02 — Discard", in the admin's language. */
export function RestoredNotice(props: { at: number; onDiscard: () => void }) {
  const { t } = useTranslation();
  const time = new Date(props.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
  return (
    <p role="status" className="mt-4 rounded-lg border border-gold/50 bg-gold/10 p-3 text-sm">
      {t("admin.lifecycle.restored", { time })}{" "}
      <button type="button" onClick={props.onDiscard} className="font-semibold text-gold underline">
        {t("admin.lifecycle.discard")}
      </button>
    </p>
  );
}
