import { applySchema, type AppwriteSchema } from "../../lib/appwrite/setup.ts";
import schema from "../../schemas/appwrite.json" with { type: "json" };
import type { CommandContext } from "../context.ts";
import { emitJson } from "../output.ts";

/** `studio setup`: applies `schemas/appwrite.json`, printing each change (one JSON line with `--json`). */
export async function runSetup(context: CommandContext, options: { json?: boolean }): Promise<number> {
  const changes = await applySchema(context.services, schema as AppwriteSchema, {
    onChange: options.json ? undefined : (message) => console.log(message),
  });
  if (options.json) emitJson("result", { changes });
  else
    console.log(
      changes.length ? `Schema applied: ${changes.length} change(s).` : "Schema up to date: nothing to change.",
    );
  return 0;
}
