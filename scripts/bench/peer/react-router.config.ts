import type { Config } from "@react-router/dev/config";

/**
 * The benchmarks' peer (issue #33 item 1): a minimal React Router framework-mode app, built by
 * `scripts/bench/lib/peer.ts` into `PEER_BUILD_DIR` (a temporary folder), never into the repository.
 */
export default {
  appDirectory: "app",
  buildDirectory: process.env.PEER_BUILD_DIR ?? "build",
  ssr: true,
} satisfies Config;
