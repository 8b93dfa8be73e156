import { randomBytes } from "node:crypto";

/**
 * A new 20-character hex ID: seconds, milliseconds (5 hex digits) and 7 random hex digits,
 * the same shape as `ID.unique()` (REFERENCE §10).
 */
export function uniqueId(): string {
  const now = Date.now();
  const seconds = Math.floor(now / 1000).toString(16);
  const millis = ((now % 1000) * 1000).toString(16).padStart(5, "0");
  return seconds + millis + randomBytes(4).toString("hex").slice(0, 7);
}
