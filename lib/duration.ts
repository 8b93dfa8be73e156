/** Durations typed on the command line (no dependencies: `studio --help` may load it). */

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * Parses `0`, or a whole number followed by `s`, `m`, `h` or `d` (`90s`, `30m`, `1h`, `2d`).
 * @returns the duration in ms, or null when `text` is not one.
 */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) return null;
  const value = Number(match[1]);
  if (!match[2]) return value === 0 ? 0 : null;
  return value * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
