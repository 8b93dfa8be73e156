/**
 * Imported first by `launcher/start.ts`: the site runs React and React Router in production mode unless told
 * otherwise. It must run before any of them is imported (ESM evaluates imports in order), because React picks
 * its build when it is first loaded.
 */
process.env.NODE_ENV ??= "production";
