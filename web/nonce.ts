import { createContext, useContext } from "react";

/**
 * The per-response CSP nonce (SECURITY C20, C21): set by `entry.server.tsx` while rendering; the browser hides
 * nonce values from the DOM, so in the browser it is empty.
 */
export const NonceContext = createContext("");

/** The nonce for `<Scripts>` and `<ScrollRestoration>`. */
export function useNonce(): string {
  return useContext(NonceContext);
}
