/**
 * Setup file of the io and e2e projects, which run their files several to a worker process (`isolate: false`):
 * before each file, the worker is put back as a process of its own would start it, so no file sees what an
 * earlier one left (issue #27 item 4):
 * - vitest's registry of the project's own modules (lib/, server/, the site's build, the test helpers) is
 *   emptied, so every file starts its stacks with fresh module state (the site's Appwrite clients, rate
 *   limiters, caches). Packages from node_modules (React, playwright-core, jsdom, node-appwrite) stay loaded:
 *   loading them again for each file was a third of these projects' CPU time;
 * - `process.env` is restored to what the worker started with: a site stack sets `APPWRITE_ENDPOINT` and its
 *   key for its in-process site, and a later file that spawns `npm start` or `studio` with the inherited
 *   environment would otherwise send them to a backend that is gone. vitest's own `VITEST_*` variables are left
 *   as vitest set them;
 * - React is loaded in its production build, once a worker: the sites these files start in-process render as
 *   `npm start` renders (launcher/production-env.ts), not with the development build vitest's `NODE_ENV=test`
 *   would pick (its extra checks cost the io project's site-heavy files ~8 % of their CPU time). React picks its
 *   build when first loaded and stays loaded across files; `NODE_ENV` itself stays "test" for the tests and the
 *   processes they spawn.
 */
import { vi } from "vitest";

const REACT_LOADED = Symbol.for("venture-studio.tests.production-react");
const worker = globalThis as { [REACT_LOADED]?: true };
if (!worker[REACT_LOADED]) {
  const mode = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await Promise.all([import("react"), import("react/jsx-runtime"), import("react-dom"), import("react-dom/server")]);
  } finally {
    process.env.NODE_ENV = mode;
  }
  worker[REACT_LOADED] = true;
}

const FIRST_ENV = Symbol.for("venture-studio.tests.first-env");
const holder = globalThis as { [FIRST_ENV]?: Readonly<Record<string, string | undefined>> };
const first = (holder[FIRST_ENV] ??= { ...process.env });
const own = (name: string) => !name.startsWith("VITEST");
for (const name of Object.keys(process.env)) if (own(name) && !(name in first)) delete process.env[name];
for (const [name, value] of Object.entries(first)) if (own(name) && value !== undefined) process.env[name] = value;

vi.resetModules();
