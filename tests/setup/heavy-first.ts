import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files known to run longest start first, so the run does not end with one long file on one worker while the
 * other core idles (a clean clone has no timing cache, and vitest then orders files by size: the axe sweeps
 * are small files that run for minutes). The rest keep vitest's order (cached durations, else size).
 * Patterns match the file's path; earlier patterns start earlier.
 */
export function heavyFirst(patterns: RegExp[]) {
  return class HeavyFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (file: TestSpecification) => {
        const index = patterns.findIndex((pattern) => pattern.test(file.moduleId));
        return index === -1 ? patterns.length : index;
      };
      return sorted
        .map((file, order) => ({ file, order }))
        .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
        .map(({ file }) => file);
    }
  };
}
