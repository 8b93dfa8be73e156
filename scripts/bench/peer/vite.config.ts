import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

/**
 * The peer's build: React Router's plugin alone. `virtual:captured` is the JSON the benchmark captured from the
 * project's pages (`PEER_CAPTURE`, a file outside the repository; `scripts/bench/lib/peer-capture.ts`).
 */
export default defineConfig({
  plugins: [reactRouter()],
  resolve: { alias: { "virtual:captured": process.env.PEER_CAPTURE ?? "/nonexistent/captured.json" } },
  logLevel: "warn",
});
