import type { Command } from "commander";
import { EXIT } from "../exit-codes.ts";
import { emitJson, reportIssues, reportWarnings } from "../output.ts";

export interface FormatCommandOptions {
  dir: string;
  check?: boolean;
  json?: boolean;
}

/** Declares `studio format [files...]` and its flags on `program`. */
export function registerFormat(program: Command): void {
  program
    .command("format")
    .description(
      "Format content files: Prettier on bodies (HTML two spaces per level, Markdown), normalized front matter.",
    )
    .argument("[files...]", "files to format, from the current folder or the content folder (default: all)")
    .option("--dir <path>", "content folder", "content")
    .option("--check", "write nothing; exit 1 when a file would change (for CI)")
    .option("--json", "print the result as JSON")
    .action(async (files: string[], options: FormatCommandOptions) => {
      process.exitCode = await runFormat(files, options);
    });
}

/**
 * `studio format [files...]`: Prettier on bodies (HTML two spaces per level, Markdown) and normalized front
 * matter. With `--check`, writes nothing and exits 1 when a file would change (for CI). Needs no Appwrite.
 */
export async function runFormat(files: string[], options: FormatCommandOptions): Promise<number> {
  const { formatContent } = await import("../../lib/content/format.ts");
  const result = await formatContent(options.dir, { check: options.check, files: files.length ? files : undefined });
  reportWarnings(result.warnings, options.json);
  reportIssues(result.issues, options.json);
  if (options.json) {
    emitJson("result", {
      changed: result.changed,
      unchanged: result.unchanged.length,
      invalid: result.issues.length,
      check: !!options.check,
    });
  } else {
    for (const file of result.changed) console.log(`${options.check ? "would format" : "formatted"} ${file}`);
    console.log(
      `${result.changed.length} file(s) ${options.check ? "need formatting" : "formatted"}, ${result.unchanged.length} already formatted.` +
        (options.check && result.changed.length ? " Run `studio format` to fix." : ""),
    );
  }
  if (result.issues.length > 0) return EXIT.invalidContent;
  return options.check && result.changed.length > 0 ? EXIT.invalidContent : EXIT.ok;
}
