import { defineConfig } from "vitest/config";

/**
 * `npm test`'s three projects (issue #27 item 4):
 * - unit: pure functions, in worker threads;
 * - io: tests against real servers (embedded Appwrite, the site, spawned `studio`) on free loopback ports and
 *   their own temporary folders, in forked processes, two at a time (one a core);
 * - timing: the files that assert a wall-clock figure (tests/timing/), after the others, so no io test (its
 *   bursts of spawned processes) competes with them for the CPU; two at a time, one a core.
 * The site tests need the production build, made once by the io project's global setup when sources changed.
 */
const shared = { testTimeout: 30_000, hookTimeout: 120_000, expect: { poll: { timeout: 10_000 } } };

export default defineConfig({
  test: {
    reporters: ["default"],
    globalSetup: ["tests/setup/build-site.ts"],
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          pool: "threads",
          maxWorkers: 2,
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: "io",
          include: ["tests/integration/**/*.test.{ts,tsx}", "tests/security/**/*.test.ts"],
          pool: "forks",
          maxWorkers: 2,
          // Files share a worker process; each starts with fresh project modules (tests/setup/fresh-modules.ts).
          isolate: false,
          setupFiles: ["tests/setup/fresh-modules.ts"],
          // A test that spawns `studio` several times waits on processes that share the two cores.
          testTimeout: 90_000,
        },
      },
      {
        test: {
          ...shared,
          name: "timing",
          include: ["tests/timing/**/*.test.ts"],
          pool: "forks",
          // Two files at a time (one a core): one at a time left a core idle while its files waited on clocks
          // (caches expiring, a post coming due; 42 idle core-seconds of 52 s alone). Two: 37-43 s, all 44 tests
          // passing in 5 runs, the loop-stall figure (render-cost.test.ts, limit 500 ms) at 78-127 ms.
          maxWorkers: 2,
          // Each worker runs its files one after another, each with fresh project modules, as in io: a process a
          // file spent seconds loading the same packages again.
          isolate: false,
          setupFiles: ["tests/setup/fresh-modules.ts"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
