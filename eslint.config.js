// Flat ESLint config (STYLE 10, 12): the rooms, and nothing else. Every other lint rule runs in oxlint
// (.oxlintrc.json; docs/decisions/0025, 0026); Prettier owns formatting.
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
  languageOptions: { parser: tseslint.parser },
  // typescript-eslint's plugin without its rules: ESLint refuses a disable comment that names a rule it does not
  // know, and oxlint's comments name typescript-eslint's rules.
  plugins: { boundaries, "@typescript-eslint": tseslint.plugin },
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

export default [
  { ignores: ["build/", ".react-router/", "node_modules/", "test-output/", ".data/"] },
  {
    // The disable comments in the code are oxlint's now (it reads `eslint-disable` comments too, and reports
    // those it does not use).
    linterOptions: { reportUnusedDisableDirectives: "off" },
  },
  roomRules,
];
