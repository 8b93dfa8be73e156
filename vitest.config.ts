import { defineConfig } from "vitest/config";

/**
 * `npm test`'s three projects (issue #27 item 4):
 * - unit: pure functions, in worker threads;
 * - io: tests against real servers (embedded Appwrite, the site, spawned `studio`) on free loopback ports and
 *   their own temporary folders, in forked processes, two at a time (one a core);
 * - timing: the files that assert a wall-clock figure (tests/timing/), alone and after the others, so no other
 *   test competes with them for the CPU.
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
          maxWorkers: 1,
          fileParallelism: false,
          // One process for the files, one after another, each with fresh project modules, as in io: a process
          // a file spent seconds of this serial project loading the same packages again.
          isolate: false,
          setupFiles: ["tests/setup/fresh-modules.ts"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
