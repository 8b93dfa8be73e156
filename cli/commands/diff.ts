import path from "node:path";
import type { Command } from "commander";
import { withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { EXIT, UsageError } from "../exit-codes.ts";
import { emitJson } from "../output.ts";

export interface DiffCommandOptions {
  json?: boolean;
}

/** Declares `studio diff <file>` on `program`. */
export function registerDiff(program: Command): void {
  program
    .command("diff")
    .description(
      "Show a content file beside Appwrite's version of it, field by field, in words ([-Appwrite-]{+file+}): what a push or pull would change.",
    )
    .argument("<file>", "a .md or .html file in content/ventures or content/posts")
    .option("--json", 'print NDJSON: {"type":"field",…} per field that differs, then {"type":"result",…}')
    .action(async (file: string, options: DiffCommandOptions) =>
      withContext(options.json, (c) => runDiff(c, file, options)),
    );
}

/**
 * `studio diff <file>` (issue #34): the fields of the file's version that differ from its document in
 * Appwrite, each as a word diff from Appwrite's value to the file's (bodies as readable text).
 * @returns 0 (the same or not), 1 when the file is invalid.
 * @throws {NotContentFileError} (exit 2) for a path that is not a content file.
 */
export async function runDiff(context: CommandContext, file: string, options: DiffCommandOptions): Promise<number> {
  const [{ previewFile }, { versionsOf }, { diffItem }, { renderWordDiff }] = await Promise.all([
    import("../../lib/content/preview.ts"),
    import("../../lib/content/siblings.ts"),
    import("../../lib/publish/item-diff.ts"),
    import("../../lib/text/word-diff.ts"),
  ]);
  const preview = await previewFile(file);
  if (!preview.item) {
    const problems = preview.issues.map((i) => `${i.field}: ${i.message}`).join("; ");
    throw new UsageError(`${preview.file} is invalid (${problems}); fix it to compare it.`, EXIT.invalidContent);
  }
  const own = (await versionsOf(preview.kind, file)).find((v) => path.resolve(v.file) === path.resolve(file));
  const diff = await diffItem(context.services, own ?? preview.item);
  const where = `${diff.kind} ${diff.slug} (${diff.locale})`;
  if (options.json) {
    for (const f of diff.fields) emitJson("field", { field: f.field, file: f.file, appwrite: f.appwrite });
    emitJson("result", { ...identity(diff), document: diff.document?.$id ?? null, differs: diff.fields.length });
    return EXIT.ok;
  }
  if (!diff.document) {
    console.log(`${preview.file}: Appwrite has no ${where}; \`studio push\` would create it.`);
    return EXIT.ok;
  }
  if (diff.fields.length === 0) {
    console.log(`${preview.file} and Appwrite's ${where} are the same.`);
    return EXIT.ok;
  }
  const color = context.interactive && !process.env.NO_COLOR;
  console.log(
    `${preview.file} beside Appwrite's ${where}: ${diff.fields.length} field(s) differ ` +
      (color ? "(red: only in Appwrite, green: only in the file):" : "([-only in Appwrite-] {+only in the file+}):"),
  );
  for (const f of diff.fields) {
    console.log(`\n${f.field}:`);
    console.log(renderWordDiff(f.changes, color).replace(/^/gm, "  "));
  }
  console.log(
    "\nKeep the file: `studio push --force <file>`; keep Appwrite's: `studio pull --force <file>`; or edit either, then push.",
  );
  return EXIT.ok;
}

/** What names the compared version in the JSON result. */
function identity(diff: { kind: string; slug: string; locale: string; file: string }) {
  return { kind: diff.kind, slug: diff.slug, locale: diff.locale, file: diff.file };
}
