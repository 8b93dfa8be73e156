/**
 * `studio`'s command line as a commander program: the commands (each module in `commands/` declares its own
 * flags, STYLE 6), the help text with the exit codes (README "Exit codes"), and what a usage error prints.
 * `studio.ts` runs it for the bin; tests call `runStudio` in-process for behaviour (issue #27 item 4) and spawn
 * the bin only for the process contract (tests/integration/cli-contract.test.ts).
 */
import { Command, CommanderError } from "commander";
import packageJson from "../package.json" with { type: "json" };
import { registerDiff } from "./commands/diff.ts";
import { registerFormat } from "./commands/format.ts";
import { registerGenerate } from "./commands/generate.ts";
import { registerInbox } from "./commands/inbox.ts";
import { registerPreview } from "./commands/preview.ts";
import { registerPull } from "./commands/pull.ts";
import { registerPush } from "./commands/push.ts";
import { registerRestore } from "./commands/restore.ts";
import { registerReview } from "./commands/review.ts";
import { registerSeed } from "./commands/seed.ts";
import { registerSetup } from "./commands/setup.ts";
import { registerStatus } from "./commands/status.ts";
import { registerSweep } from "./commands/sweep.ts";
import { registerTransfer } from "./commands/transfer.ts";
import { registerTranslate } from "./commands/translate.ts";
import { EXIT } from "./exit-codes.ts";
import { helpLayout, wrapWords } from "./help-layout.ts";

/** The closing paragraphs of `studio --help`, wrapped to the terminal when shown. */
const EXIT_HELP = [
  "Exit codes: 0 ok, 1 invalid content, 2 usage (also: --dir missing or without content files, or a prune of more " +
    "than half of the pushed items without --allow-mass-delete), 3 configuration, schema missing, Appwrite/Gemini " +
    "unavailable, or an export before deleting could not be written, 4 conflict (edited in Appwrite since the last " +
    "push), 5 some writes failed, 70 a bug in studio.",
  "Several at once: 2, 3 and 70 stop the run and win; otherwise 5 over 4 over 1 (every problem is still printed).",
  'With --json, stdout holds only NDJSON lines, the last one the result or {"type":"error","exit":…}.',
  "Without APPWRITE_ENDPOINT, studio uses the embedded server for DATA_DIR (.data).",
].join("\n");

/** A new program (commander keeps parsed option values on its commands, so each run gets its own). */
export function createProgram(): Command {
  const program = new Command()
    .name("studio")
    .description(
      "Format, preview and publish the ventures and blog posts in content/ to Appwrite (or the embedded server).",
    )
    .version(packageJson.version)
    .showHelpAfterError("(run studio --help for usage)")
    .exitOverride()
    .configureHelp(helpLayout)
    .addHelpText("after", () => `\n${wrapWords(EXIT_HELP, (process.stdout.columns || 80) - 1)}`);

  registerSetup(program);
  registerPush(program);
  registerRestore(program);
  registerSweep(program);
  registerPull(program);
  registerDiff(program);
  registerSeed(program);
  registerFormat(program);
  registerGenerate(program);
  registerPreview(program);
  registerTranslate(program);
  registerStatus(program);
  registerReview(program);
  registerTransfer(program);
  registerInbox(program);

  // After a usage error commander prints what is wrong, then this: the command's usage and where to read more.
  for (const command of program.commands) {
    command.showHelpAfterError(
      `Usage: studio ${command.name()} ${command.usage()}\n(run studio ${command.name()} --help for the options)`,
    );
  }
  return program;
}

/**
 * Parses `argv` (the user's arguments, without node and the script) and runs the command. Resolves with the
 * exit code (README "Exit codes": 0 ok, 2 usage, 70 a bug, ...) and leaves `process.exitCode` as it was;
 * output goes to process.stdout and process.stderr. With `--json`, stdout holds only NDJSON, ending with an
 * error line when the command fails (README "Output"). Never rejects: errors are reported as `studio` does.
 */
export async function runStudio(argv: readonly string[]): Promise<number> {
  const json = argv.includes("--json");
  const before = process.exitCode;
  process.exitCode = undefined;
  try {
    await createProgram().parseAsync([...argv], { from: "user" });
    return Number(process.exitCode ?? EXIT.ok);
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander printed what is wrong (and the usage) already; --help and --version end here too.
      if (json && error.exitCode !== 0) {
        const { errorLine } = await import("./report-error.ts");
        process.stdout.write(errorLine(EXIT.usage, error.message.replace(/^error: /, "")));
      }
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return await (await import("./report-error.ts")).reportError(error, undefined, json);
  } finally {
    process.exitCode = before;
  }
}
