import { useId, useRef, type KeyboardEvent } from "react";
import { useLocale } from "../hooks.ts";
import { directionOf } from "../i18n/i18n.ts";

/**
 * The one WAI-ARIA tabs behaviour of the site and the admin (issue #27 item 5; WAI-ARIA APG "Tabs", manual
 * activation by click, automatic by arrow keys): roving `tabIndex`, arrow keys move in the page's reading
 * direction (Left is "next" in Arabic, RTL), Home/End jump to the first/last tab, and each tab and panel are
 * linked by ids (`aria-controls`/`aria-labelledby`). The element of a tab is the caller's (the services
 * page's are links to `?tab=N`, so they work without JavaScript; the admin's are buttons).
 *
 * `count` tabs, `selected` the index shown, `select(index)` shows another. Kept in-house rather than
 * `@radix-ui/react-tabs`: Radix renders its triggers as buttons (no `?tab=N` link without JavaScript) and
 * adds its roving-focus and presence modules to the public pages' JavaScript.
 */
export function useTabList(count: number, selected: number, select: (index: number) => void) {
  const refs = useRef<(HTMLElement | null)[]>([]);
  const id = useId();
  const forward = directionOf(useLocale()) === "rtl" ? "ArrowLeft" : "ArrowRight";
  const back = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";

  function choose(index: number) {
    const next = (index + count) % count;
    select(next);
    refs.current[next]?.focus();
  }

  return {
    /** The props of tab `index`: role, ids, selection, roving focus and its keys. */
    tab: (index: number) => ({
      ref: (el: HTMLElement | null) => {
        refs.current[index] = el;
      },
      role: "tab" as const,
      id: `${id}-tab-${index}`,
      "aria-selected": index === selected,
      "aria-controls": `${id}-panel-${index}`,
      tabIndex: index === selected ? 0 : -1,
      onKeyDown: (event: KeyboardEvent) => {
        const moves: Record<string, number> = { [forward]: index + 1, [back]: index - 1, Home: 0, End: count - 1 };
        const target = moves[event.key];
        if (target === undefined) return;
        event.preventDefault();
        choose(target);
      },
    }),
    /** The props of panel `index`: role, ids, and `hidden` unless it is the selected one. */
    panel: (index: number) => ({
      role: "tabpanel" as const,
      id: `${id}-panel-${index}`,
      "aria-labelledby": `${id}-tab-${index}`,
      hidden: index !== selected,
    }),
  };
}
