import { useEffect, useState, type RefObject } from "react";
import { CONTENT_LOCALES, type ContentKind, type ContentLocale } from "../../../model/model.ts";
import { errorLocaleOf } from "./error-summary.tsx";

/**
 * Errors show where the editor is looking (issue #29 item 8: an Arabic-first editor's errors landed on the
 * hidden English tab and Save seemed to do nothing). When a refused save's `errors` arrive: the shown tab
 * stays if it has errors, else the first tab (in the table's order) that has some opens; then the first
 * invalid field (`aria-invalid="true"`) of the shown panel, or of the form when only shared fields failed,
 * gets the focus. Runs once per answer (`errors` is the action data's object, the same between renders).
 */
export function useErrorTab(props: {
  kind: ContentKind;
  errors: Partial<Record<string, string>>;
  routeLocale: ContentLocale;
  selected: ContentLocale;
  setSelected: (locale: ContentLocale) => void;
  /** An element inside the form (the tabs' root). */
  root: RefObject<HTMLElement | null>;
}): void {
  const [focusFor, setFocusFor] = useState<object | null>(null);
  const { errors } = props;
  useEffect(() => {
    const keys = Object.keys(errors).filter((k) => errors[k]);
    if (keys.length === 0) return;
    const failing = new Set(keys.map((k) => errorLocaleOf(props.kind, k, props.routeLocale)));
    const tab = failing.has(props.selected) ? props.selected : CONTENT_LOCALES.find((l) => failing.has(l));
    if (tab && tab !== props.selected) props.setSelected(tab);
    setFocusFor(errors);
    // Once per refused save.
  }, [errors]);
  useEffect(() => {
    if (!focusFor) return;
    setFocusFor(null);
    const form = props.root.current?.closest("form");
    const panel = props.root.current?.querySelector<HTMLElement>('[role="tabpanel"]:not([hidden])');
    const invalid = (within: ParentNode | null | undefined) =>
      within?.querySelector<HTMLElement>('[aria-invalid="true"]:not([type="hidden"])');
    (invalid(panel) ?? invalid(form))?.focus();
  }, [focusFor, props.selected]);
}
