import { formatContent } from "../../lib/content/format.ts";
import { EXIT } from "../exit-codes.ts";
import { emitJson, reportIssues } from "../output.ts";

export interface FormatCommandOptions {
  dir: string;
  check?: boolean;
  json?: boolean;
}

/**
 * `studio format [files...]`: Prettier on bodies (HTML two spaces per level, Markdown) and normalized front
 * matter. With `--check`, writes nothing and exits 1 when a file would change (for CI). Needs no Appwrite.
 */
export async function runFormat(files: string[], options: FormatCommandOptions): Promise<number> {
  const result = await formatContent(options.dir, { check: options.check, files: files.length ? files : undefined });
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
