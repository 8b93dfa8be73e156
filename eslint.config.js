// Flat ESLint config with type-aware rules (STYLE 10); Prettier owns formatting.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The rooms of the house (ARCHITECTURE "Layout"): each top-level folder and the other folders its files may
 * import statically. `emulator/` is a separate server reached over HTTP; `server/` is the site's HTTP server
 * (Express entry, page cache, realtime invalidation, sessions, throttles, the admin's writes), which loads the
 * `web/` build at run time; `cli/` reaches the emulator and the site server only through lazily loaded entries
 * (a dynamic `import()`, which this rule does not restrict); nothing imports `web/` or `cli/`. Tests may import
 * anything. `docs/architecture.md` draws the same picture.
 */
const ROOMS = {
  schemas: [],
  lib: ["schemas"],
  emulator: [],
  server: ["lib", "schemas"],
  web: ["lib", "schemas", "server"],
  cli: ["lib", "schemas"],
  scripts: ["lib", "schemas", "emulator", "server"],
};

/**
 * One `no-restricted-imports` block per room and folder depth: a file `depth` folders down leaves its room
 * with `depth` `../` segments, so any relative import that climbs that far must land in an allowed room (or read `package.json`).
 */
function roomRules() {
  return Object.entries(ROOMS).flatMap(([room, allowed]) =>
    [1, 2, 3, 4].map((depth) => ({
      files: [`${room}/${"*/".repeat(depth - 1)}*.{ts,tsx,js,mjs}`],
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              {
                regex: `^(\\.\\./){${depth}}(?!(${[room, ...allowed].join("|")})/|package\\.json$)`,
                message: `${room}/ may import only ${allowed.length ? allowed.join("/, ") + "/" : "itself"} (ARCHITECTURE "Layout").`,
              },
            ],
          },
        ],
      },
    })),
  );
}

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "test-output/", ".data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // The product's own code uses no deprecated API (node-appwrite's Databases service, positional-argument
    // overloads, …; issue #19 item 5). Tests may: they read through the Databases API as older clients do.
    files: ["{web,lib,server,cli}/**/*.{ts,tsx}"],
    rules: { "@typescript-eslint/no-deprecated": "error" },
  },
  ...roomRules(),
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
