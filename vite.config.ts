import { writeFile } from "node:fs/promises";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { precompress } from "./server/http/static-files.ts";

/**
 * Records which source modules each browser chunk holds, in `<build>/client-modules.json` (beside `client/`, so
 * it is never served): `{ "assets/x-Hash.js": ["web/components/ui.tsx", "node_modules/react/…", …] }`, paths
 * relative to the project. `scripts/bench/js-size.ts` and `tests/security/bundle.test.ts` read it to prove that
 * no admin-only module reaches a public page.
 */
function clientModules(): Plugin {
  return {
    name: "client-modules",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const root = this.environment.config.root;
      const chunks: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        // Only modules that left code in the chunk (a route module's server-only exports leave none).
        const ids = Object.entries(output.modules)
          .filter(([id, module]) => module.renderedLength > 0 && !id.startsWith("\0"))
          .map(([id]) => path.relative(root, id.replace(/\?.*$/, "")));
        chunks[output.fileName] = [...new Set(ids)];
      }
      await writeFile(path.join(options.dir!, "..", "client-modules.json"), `${JSON.stringify(chunks, null, 1)}\n`);
    },
  };
}

/** Source modules of the browser's two shared chunks (paths with `/` separators). */
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|react-router)\//;
const SITE =
  /\/web\/(i18n\/|hooks\.ts|seo\.ts|site\.ts|components\/(blog-parts|cards|error-view|fade-in|icons|ui)\.tsx)/;

/**
 * Browser chunks: React, React DOM and React Router in one file, and the public pages' shared code (i18n,
 * components every page uses; the messages come as loader data) in another, instead of a dozen small shared chunks: fewer requests before
 * hydration (each costs a round trip on an HTTP/1.1 connection). The server build is left as one file.
 */
function clientChunks(): Plugin {
  return {
    name: "client-chunks",
    config(_config, { isSsrBuild }) {
      if (isSsrBuild) return;
      const manualChunks = (id: string) => {
        const file = id.replaceAll("\\", "/");
        if (FRAMEWORK.test(file)) return "framework";
        if (SITE.test(file)) return "site";
        return undefined;
      };
      return { build: { rollupOptions: { output: { manualChunks } } } };
    },
  };
}

/**
 * Brotli and gzip copies of the browser files, written beside them once by the build (`precompress`), which
 * every site process reads at start: a process no longer spends ~3 CPU-seconds compressing the same scripts, and
 * the first visitor gets them compressed (issue #33). Written here rather than with a plugin from npm: the one
 * maintained for this (vite-plugin-compression2) also compresses the server build and rewrites
 * `process.stdout.write` to reorder Vite's log; node:zlib does the compressing either way.
 */
function precompressedCopies(): Plugin {
  return {
    name: "precompressed-copies",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options) {
      await precompress(options.dir!);
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), clientModules(), clientChunks(), precompressedCopies()],
  publicDir: "web/public",
  build: { assetsInlineLimit: 0 },
});
