/**
 * `studio`: drafts, formats, previews and publishes ventures and posts kept in `content/`.
 * Commands are thin (STYLE 6): parse flags, build a context, call `lib/`. `--help` and `--version` load
 * neither Ink nor React nor the SDK: command modules are imported on use.
 */
import { Command, CommanderError } from "commander";
import type { CommandContext } from "./context.ts";
import { EXIT } from "./exit-codes.ts";

const program = new Command()
  .name("studio")
  .description("Publish the ventures and blog posts in content/ to Appwrite (or the embedded server).")
  .version("0.1.0")
  .showHelpAfterError("(run studio --help for usage)")
  .exitOverride();

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

program
  .command("setup")
  .description("Create or update the database, collections, indexes and bucket of schemas/appwrite.json (idempotent).")
  .option("--json", "print the list of changes as JSON")
  .action(async (options: { json?: boolean }) => {
    await withContext(options.json, async (context) =>
      (await import("./commands/setup.ts")).runSetup(context, options),
    );
  });

program
  .command("push")
  .description("Validate content/, then create or update its ventures and posts by slug. Re-running changes nothing.")
  .option("--dir <path>", "content folder", "content")
  .option("--dry-run", "print the plan and write nothing")
  .option("--json", "print {created, updated, unchanged, failed} as JSON")
  .action(async (options: { dir: string; dryRun?: boolean; json?: boolean }) => {
    await withContext(options.json, async (context) => (await import("./commands/push.ts")).runPush(context, options));
  });

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    const { ConfigError } = await import("../lib/config.ts");
    const { SchemaMissingError, describeError } = await import("../lib/publish/push.ts");
    const { AppwriteException } = await import("node-appwrite");
    const backend =
      error instanceof AppwriteException || (error instanceof TypeError && /fetch failed/.test(error.message));
    if (error instanceof ConfigError || error instanceof SchemaMissingError) {
      console.error(`studio: ${error.message}`);
    } else if (backend) {
      console.error(`studio: Appwrite refused or did not answer: ${describeError(error)}`);
      console.error(
        "Check APPWRITE_ENDPOINT, APPWRITE_PROJECT_ID and APPWRITE_API_KEY, or unset APPWRITE_ENDPOINT to use the embedded server.",
      );
    } else {
      console.error(`studio: unexpected error: ${describeError(error)}`);
      console.error("This is a bug; please report it with the command you ran and this output:");
      console.error(error);
    }
    const setupNeeded = error instanceof ConfigError || error instanceof SchemaMissingError;
    process.exitCode = setupNeeded || backend ? EXIT.backend : EXIT.failed;
  }
}
