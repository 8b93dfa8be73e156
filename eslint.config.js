// Flat ESLint config (STYLE 10): the rules that need no types and the rooms; the type-aware rules are in
// .oxlintrc.json (docs/decisions/0025); Prettier owns formatting.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import boundaries from "eslint-plugin-boundaries";

/**
 * The rooms of the house (docs/architecture.md "Rooms"): each top-level folder and the rooms its files may import
 * statically, kept by eslint-plugin-boundaries (STYLE 12). `embedded-appwrite/` is a separate server reached over
 * HTTP; `server/` is the site's HTTP server, which loads the `web/` build at run time; `launcher/` composes the
 * processes `npm start` runs; `cli/` reaches the embedded server and the site server only through lazily loaded
 * entries (a dynamic `import()`, not checked here); nothing imports `web/`, `cli/` or `launcher/`. Tests may
 * import anything.
 */
const ROOMS = {
  model: [],
  lib: ["model"],
  "embedded-appwrite": [],
  server: ["lib", "model"],
  web: ["lib", "model", "server"],
  cli: ["lib", "model"],
  launcher: ["lib", "model", "embedded-appwrite", "server"],
  scripts: ["lib", "model", "embedded-appwrite", "server", "launcher"],
};

const roomRules = {
  files: [`{${Object.keys(ROOMS).join(",")}}/**/*.{ts,tsx,js,mjs}`],
  plugins: { boundaries },
  settings: {
    "boundaries/elements": Object.keys(ROOMS).map((room) => ({ type: room, pattern: room, partialMatch: false })),
    "boundaries/root-path": import.meta.dirname,
    "boundaries/dependency-nodes": ["import", "export"],
    "import/resolver": { typescript: { alwaysTryTypes: true } },
  },
  rules: {
    "boundaries/dependencies": [
      "error",
      {
        default: "disallow",
        message: '{{from.type}}/ may not import {{to.type}}/ (docs/architecture.md "Rooms").',
        policies: Object.entries(ROOMS).map(([room, allowed]) => ({
          from: { element: { type: room } },
          allow: { to: { element: { types: { anyOf: [room, ...allowed] } } } },
        })),
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "test-output/", ".data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The rules that need types (no-floating-promises, switch-exhaustiveness-check, no-deprecated) run in oxlint
    // (.oxlintrc.json, tsgolint on TypeScript 7): here they cost a TypeScript program of the whole tree, most of
    // the lint's minute of CPU.
    files: ["**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  roomRules,
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
