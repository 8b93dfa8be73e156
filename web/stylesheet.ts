import { createContext, useContext } from "react";

/**
 * The compiled stylesheet the page inlines (issue 18 item 6): set by `entry.server.tsx` from
 * `server/stylesheet.server.ts` while rendering; empty in the browser, which keeps the server's `<style>`.
 */
export const StylesheetContext = createContext("");

/** The stylesheet text for the document's inline `<style>` (empty in the browser). */
export function useStylesheet(): string {
  return useContext(StylesheetContext);
}
