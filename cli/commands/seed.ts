import type { Command } from "commander";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { exitCodeFor } from "../exit-codes.ts";
import { emitJson, reportIssues, reportWarnings } from "../output.ts";
import { plainLine, resultJson, summaryLine } from "./push.ts";

/** Declares `studio seed` and its flags on `program`. */
export function registerSeed(program: Command): void {
  program
    .command("seed")
    .description("setup + push, non-interactive: for CI pipelines.")
    .option("--dir <path>", "content folder", "content")
    .option("--json", "print NDJSON events and a final result line")
    .action(async (options: { dir: string; json?: boolean }) => withContext(options.json, (c) => runSeed(c, options)));
}

/**
 * `studio seed`: `setup` then `push`, non-interactive, for a pipeline (no prompts, no live view; never
 * prunes, never forces). Exit codes as `push` (2 for a missing or empty content folder, before setup).
 */
export async function runSeed(context: CommandContext, options: { dir: string; json?: boolean }): Promise<number> {
  const [{ applyContentSchema: applySchema }, { push, readContentFolder }, schema] = await Promise.all([
    import("../../lib/appwrite/content-schema.ts"),
    import("../../lib/publish/push.ts"),
    import("../../model/appwrite.json", { with: { type: "json" } }),
  ]);
  await readContentFolder(options.dir); // a missing or empty --dir fails before the schema is touched (C59)
  const changes = await applySchema(context.services, schema.default as AppwriteSchema, {
    onChange: options.json ? undefined : (message) => console.log(message),
  });
  if (options.json) emitJson("setup", { changes });
  else console.log(changes.length ? `Schema: ${changes.length} change(s) applied.` : "Schema: up to date.");
  const result = await push(context.services, {
    contentDir: options.dir,
    lockPath: context.lockPath(options.dir),
    onEvent: (event) => {
      if (options.json) {
        if (event.type === "item") emitJson("item", { ...event.result, done: event.done, total: event.total });
        return;
      }
      const line = plainLine(event, false);
      if (line) console.log(line);
    },
  });
  reportWarnings(result.warnings, options.json);
  reportIssues(result.issues, options.json);
  if (options.json) emitJson("result", resultJson(result));
  else console.log(summaryLine(result));
  return exitCodeFor(result);
}
