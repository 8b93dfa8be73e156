import type { Command } from "commander";
import type { RestoreItem } from "../../lib/publish/restore.ts";
import { withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";
import { emitJson } from "../output.ts";

/** Declares `studio restore <export>` and its flags on `program`. */
export function registerRestore(program: Command): void {
  program
    .command("restore")
    .description("Put back the items and images an export (written by push --prune or sweep --yes) holds.")
    .argument("<export>", "an export file, e.g. .data/exports/prune-<time>.json")
    .option("--json", "print NDJSON events and a final result line")
    .action(async (file: string, options: { json?: boolean }) =>
      withContext(options.json, (c) => runRestore(c, file, options)),
    );
}

function itemLine(item: RestoreItem): string {
  const what = item.type === "file" ? `file ${item.kind}/${item.id}` : `${item.kind} ${item.slug ?? item.id}`;
  return `${item.action} ${what}${item.reason ? `: ${item.reason}` : ""}`;
}

/**
 * `studio restore <export.json>`: puts back the documents and files of an export written by
 * `push --prune` or `sweep --yes` that are missing in Appwrite (existing ones are left alone).
 * @returns 0; 4 when a document's slug is taken by another document; 5 when some items failed.
 * @throws {ExportFileError} when the file is not a studio export.
 */
export async function runRestore(context: CommandContext, file: string, options: { json?: boolean }): Promise<number> {
  const [{ readExport }, { restoreExport }] = await Promise.all([
    import("../../lib/publish/export.ts"),
    import("../../lib/publish/restore.ts"),
  ]);
  const exported = await readExport(file);
  const result = await restoreExport(context.services, exported, (item) => {
    if (options.json) emitJson("item", item);
    else console.log(itemLine(item));
  });
  const { restored, existing, conflicts, failed } = result;
  if (options.json) emitJson("result", { restored, existing, conflicts, failed });
  else {
    console.log(
      `Restored ${restored.documents} item(s) and ${restored.files} file(s); ${existing} already there, ` +
        `${conflicts} conflict(s), ${failed} failed.` +
        (restored.documents > 0 ? " Run `studio pull` to bring restored items back into content files." : ""),
    );
  }
  if (failed > 0) return EXIT.partialFailure;
  return conflicts > 0 ? EXIT.conflict : EXIT.ok;
}
