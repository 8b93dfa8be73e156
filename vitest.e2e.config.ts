import { defineConfig } from "vitest/config";
import { heavyFirst } from "./tests/setup/heavy-first.ts";

// Browser tests: playwright-core driving Debian's Chromium (/usr/bin/chromium) against the real stack.
// Separate from `npm test` so a fresh clone without Chromium still passes the quick start; CI runs both.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/setup/build-site.ts"],
    // A test that takes 15 s alone took over 60 s while the other worker ran an axe sweep (CI, stop 37): the
    // limit is for a hung test, not a slow machine; each wait inside a test keeps its own shorter timeout.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two files at a time (one a core); each starts its own stack and browser on free ports and temporary folders.
    pool: "forks",
    maxWorkers: 2,
    // Files share a worker process; each starts with fresh project modules (tests/setup/fresh-modules.ts).
    isolate: false,
    setupFiles: ["tests/setup/fresh-modules.ts"],
    // The longest files (clean-clone CI, stop 37: 159 s, 122 s, 88 s, 75 s) first, so the two workers finish together.
    sequence: { sequencer: heavyFirst([/admin-lang\.test/, /admin\.test/, /pages\.test/, /admin-flash\.test/]) },
    // A browser waits on a server that shares the two cores with another file: polls get 10 s, not 1 s.
    expect: { poll: { timeout: 10_000 } },
  },
});
