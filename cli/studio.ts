/**
 * `studio`: drafts, formats, previews and publishes ventures and posts kept in `content/`.
 * Commands are thin (STYLE 6): parse flags, build a context, call `lib/`. `--help` and `--version` load
 * neither Ink nor React nor the SDK: command modules are imported on use (separate chunks in the bundle).
 */
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { parseDuration } from "../lib/duration.ts";
import type { CommandContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

// https://no-color.org: NO_COLOR set and not empty turns colours off. Ink's chalk reads FORCE_COLOR when it is
// first imported, which is after this line (Ink is loaded lazily).
if (process.env.NO_COLOR) process.env.FORCE_COLOR = "0";

const program = new Command()
  .name("studio")
  .description(
    "Format, preview and publish the ventures and blog posts in content/ to Appwrite (or the embedded server).",
  )
  .version(packageJson.version)
  .showHelpAfterError("(run studio --help for usage)")
  .exitOverride()
  .addHelpText(
    "after",
    `
Exit codes: 0 ok, 1 invalid content, 2 usage (also: --dir missing or without content files, or a prune of more
than half of the pushed items without --allow-mass-delete), 3 configuration, schema missing, Appwrite/Gemini unavailable,
or an export before deleting could not be written, 4 conflict (edited in Appwrite since the last push), 5 some writes failed, 70 a bug in studio.
Without APPWRITE_ENDPOINT, studio uses the embedded server for DATA_DIR (.data).`,
  );

async function withContext(
  json: boolean | undefined,
  run: (context: CommandContext) => Promise<number>,
): Promise<void> {
  const { createContext } = await import("./context.ts");
  const context = await createContext({ json });
  try {
    process.exitCode = await run(context);
  } finally {
    await context.close();
  }
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError("expected a whole number from 1 to 64.");
  return n;
}

/** The sweep's default grace period (`DEFAULT_SWEEP_GRACE_MS` in `lib/publish/sweep.ts`): 1 hour. */
const DEFAULT_GRACE_MS = 3_600_000;

function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === null) throw new InvalidArgumentError("expected 0 or a duration such as 90s, 30m, 1h or 2d.");
  return ms;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("expected a port number (0 = any free port).");
  return n;
}

program
  .command("setup")
  .description("Create or update the database, collections, indexes and bucket of schemas/appwrite.json (idempotent).")
  .option("--json", "print the changes as JSON")
  .action(async (options: { json?: boolean }) => {
    await withContext(options.json, async (c) => (await import("./commands/setup.ts")).runSetup(c, options));
  });

program
  .command("push")
  .description("Validate content/, plan against Appwrite, then create, update (and with --prune delete) items by slug.")
  .option("--dir <path>", "content folder", "content")
  .option("--dry-run", "print the plan and write nothing")
  .option("--force", "overwrite items edited in Appwrite since the last push (conflicts)")
  .option("--prune", "delete items whose files were removed (asks first; --yes in CI)")
  .option("-y, --yes", "answer yes to the --prune confirmation")
  .option(
    "--allow-mass-delete",
    "let --prune delete more than half of the items pushed from these files (otherwise exit 2, nothing deleted)",
  )
  .option("--concurrency <n>", "writes in flight at once", positiveInteger, 4)
  .option(
    "--export-dir <path>",
    "where --prune first exports what it deletes (default: DATA_DIR/exports, or .studio/exports with APPWRITE_ENDPOINT)",
  )
  .option("--json", "print NDJSON progress events and a final result line")
  .action(async (options: { dir: string; json?: boolean }) => {
    await withContext(options.json, async (c) => (await import("./commands/push.ts")).runPush(c, options));
  });

program
  .command("restore")
  .description("Put back the items and images an export (written by push --prune or sweep --yes) holds.")
  .argument("<export>", "an export file, e.g. .data/exports/prune-<time>.json")
  .option("--json", "print NDJSON events and a final result line")
  .action(async (file: string, options: { json?: boolean }) => {
    await withContext(options.json, async (c) => (await import("./commands/restore.ts")).runRestore(c, file, options));
  });

program
  .command("sweep")
  .description(
    "List images no venture or post references (older than --older-than); with --yes, export then delete them.",
  )
  .option("-y, --yes", "delete the orphans (default: only list them)")
  .addOption(
    new Option(
      "--older-than <duration>",
      "only files at least this old (grace period): 0, or a number with s, m, h or d",
    )
      .argParser(duration)
      .default(DEFAULT_GRACE_MS, "1h"),
  )
  .option("--export-dir <path>", "where --yes first exports what it deletes (as push --prune)")
  .option("--json", "print NDJSON lines and a final result line")
  .action(async (options: { yes?: boolean; json?: boolean; olderThan: number; exportDir?: string }) => {
    await withContext(options.json, async (c) =>
      (await import("./commands/sweep.ts")).runSweep(c, { ...options, olderThanMs: options.olderThan }),
    );
  });

program
  .command("pull")
  .description("Write items edited or created in Appwrite (the admin) back into content/ files, images included.")
  .option("--dir <path>", "content folder", "content")
  .option("--dry-run", "print what would be written and write nothing")
  .option("--force", "overwrite files edited locally since the last sync")
  .option("--json", "print NDJSON events and a final result line")
  .action(async (options: { dir: string; json?: boolean }) => {
    await withContext(options.json, async (c) => (await import("./commands/pull.ts")).runPull(c, options));
  });

program
  .command("seed")
  .description("setup + push, non-interactive: for CI pipelines.")
  .option("--dir <path>", "content folder", "content")
  .option("--json", "print NDJSON events and a final result line")
  .action(async (options: { dir: string; json?: boolean }) => {
    await withContext(options.json, async (c) => (await import("./commands/seed.ts")).runSeed(c, options));
  });

program
  .command("format")
  .description(
    "Format content files: Prettier on bodies (HTML two spaces per level, Markdown), normalized front matter.",
  )
  .argument("[files...]", "files relative to the content folder (default: all)")
  .option("--dir <path>", "content folder", "content")
  .option("--check", "write nothing; exit 1 when a file would change (for CI)")
  .option("--json", "print the result as JSON")
  .action(async (files: string[], options: { dir: string; check?: boolean; json?: boolean }) => {
    process.exitCode = await (await import("./commands/format.ts")).runFormat(files, options);
  });

program
  .command("generate")
  .description(
    "Draft a venture or a post with the AI into content/ (draft: true, never published). Needs GEMINI_API_KEY.",
  )
  .addArgument(new Argument("<kind>", "what to draft").choices(["venture", "post"]))
  .requiredOption("--topic <text>", "what the draft is about")
  .option("--image", "also generate the featured image (post) or logo (venture)")
  .option("--author <name>", "author name of a post draft", "Studio Editorial Team")
  .option("--dir <path>", "content folder", "content")
  .option("--json", "print NDJSON steps and a final result line")
  .action(
    async (
      kind: "venture" | "post",
      options: { topic: string; dir: string; image?: boolean; author?: string; json?: boolean },
    ) => {
      const { isInteractive } = await import("./context.ts");
      const { runGenerate } = await import("./commands/generate.ts");
      process.exitCode = await runGenerate(kind, { ...options, interactive: isInteractive(options.json) });
    },
  );

program
  .command("preview")
  .description(
    "Show a draft: metadata, validation and content rules, and the body as text; --web serves it in both locales.",
  )
  .argument("<file>", "a .md or .html file in content/ventures or content/posts")
  .option("--web", "serve the draft through the real site on a local port (nothing is published)")
  .option("--port <port>", "port for --web", port, 0)
  .option("--json", "print the preview as JSON")
  .action(async (file: string, options: { web?: boolean; port: number; json?: boolean }) => {
    const { isInteractive } = await import("./context.ts");
    const { runPreview } = await import("./commands/preview.ts");
    process.exitCode = await runPreview(file, { ...options, interactive: isInteractive(options.json) });
  });

// After a usage error commander prints what is wrong, then this: the command's usage and where to read more.
for (const command of program.commands) {
  command.showHelpAfterError(
    `Usage: studio ${command.name()} ${command.usage()}\n(run studio ${command.name()} --help for the options)`,
  );
}

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    // commander printed what is wrong (and the usage) already; --help and --version end here too.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    process.exitCode = await (await import("./report-error.ts")).reportError(error);
  }
}
