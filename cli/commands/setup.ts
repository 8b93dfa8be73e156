import type { Command } from "commander";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import { withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { emitJson } from "../output.ts";

/** Declares `studio setup` and its flags on `program`. */
export function registerSetup(program: Command): void {
  program
    .command("setup")
    .description(
      "Create or update the database, collections, indexes and bucket of model/appwrite.json, and the studio team (idempotent).",
    )
    .option("--json", "print the changes as JSON")
    .action(async (options: { json?: boolean }) => withContext(options.json, (c) => runSetup(c, options)));
}

/** `studio setup`: applies `model/appwrite.json`, printing each change (one JSON line with `--json`). */
export async function runSetup(context: CommandContext, options: { json?: boolean }): Promise<number> {
  const [{ applyContentSchema: applySchema }, schema] = await Promise.all([
    import("../../lib/appwrite/content-schema.ts"),
    import("../../model/appwrite.json", { with: { type: "json" } }),
  ]);
  const changes = await applySchema(context.services, schema.default as AppwriteSchema, {
    onChange: options.json ? undefined : (message) => console.log(message),
    studioOwnerEmail: context.config.studioOwnerEmail,
  });
  if (options.json) emitJson("result", { changes });
  else
    console.log(
      changes.length ? `Schema applied: ${changes.length} change(s).` : "Schema up to date: nothing to change.",
    );
  return 0;
}
