/** Exit codes of `studio` (documented in the README). */
export const EXIT = {
  ok: 0,
  /** Some content was invalid or some items failed; the rest was applied. */
  failed: 1,
  /** Bad flags or arguments. */
  usage: 2,
  /** Configuration missing or invalid, or Appwrite unreachable / refusing the key. */
  backend: 3,
} as const;
