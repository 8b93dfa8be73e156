import { defineConfig } from "vitest/config";

// Tests run against real servers (emulator, site) on free loopback ports; the site needs a production build,
// made once by the global setup when sources changed.
export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.{ts,tsx}", "tests/security/**/*.test.ts"],
    globalSetup: ["tests/setup/build-site.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default"],
  },
});
