/**
 * `studio`: drafts, formats, previews and publishes ventures and posts kept in `content/`.
 * Commands are thin (STYLE 6): each module in `commands/` declares its own flags, builds a context and calls
 * `lib/`. `--help` and `--version` load neither Ink nor React nor the SDK: command modules import `lib/` on
 * use (separate chunks in the bundle), and only types statically.
 */
import { runStudio } from "./program.ts";

// https://no-color.org: NO_COLOR set and not empty turns colours off. Ink's chalk reads FORCE_COLOR when it is
// first imported, which is after this line (Ink is loaded lazily).
if (process.env.NO_COLOR) process.env.FORCE_COLOR = "0";

process.exitCode = await runStudio(process.argv.slice(2));
