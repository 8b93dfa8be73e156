/**
 * Imported first by benchmarks that run the site in their own process: React and React Router pick their
 * production builds, as under `npm start`, only if `NODE_ENV` is set before they are loaded.
 */
process.env.NODE_ENV ??= "production";
