/**
 * Setup file of the io and e2e projects, which run their files several to a worker process (`isolate: false`):
 * before each file, vitest's registry of the project's own modules (lib/, server/, the site's build, the test
 * helpers) is emptied, so every file starts its stacks with fresh module state (the site's Appwrite clients,
 * rate limiters, caches), as it would in a process of its own. Packages from node_modules (React, playwright-core,
 * jsdom, node-appwrite) stay loaded: loading them again for each file was a third of these projects' CPU time
 * (issue #27 item 4).
 */
import { vi } from "vitest";

vi.resetModules();
