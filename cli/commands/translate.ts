import { Option, type Command } from "commander";
import { EXIT } from "../exit-codes.ts";
import { emitJson } from "../output.ts";
import { DEFAULT_CONTENT_LOCALE, otherLocales, type ContentLocale } from "../../model/locales.ts";

export interface TranslateCommandOptions {
  to: ContentLocale;
  dir: string;
  force?: boolean;
  json?: boolean;
}

/** Declares `studio translate <file>... --to ar|en` and its flags on `program`. */
export function registerTranslate(program: Command): void {
  program
    .command("translate")
    .description(
      "Draft the missing or stale language version of content files with the AI (<name>.<locale>.html, draft: true). Needs GEMINI_API_KEY.",
    )
    .argument("<files...>", "source files (posts/x.md), from the current folder or the content folder")
    .addOption(
      new Option("--to <locale>", "the language to translate into")
        .choices(otherLocales(DEFAULT_CONTENT_LOCALE).concat(DEFAULT_CONTENT_LOCALE))
        .makeOptionMandatory(),
    )
    .option("--dir <path>", "content folder", "content")
    .option("--force", "translate even when the version exists and is not stale")
    .option("--json", "print one NDJSON line per file and a final result line")
    .action(async (files: string[], options: TranslateCommandOptions) => {
      process.exitCode = await runTranslate(files, options);
    });
}

/**
 * `studio translate <file>... --to ar|en`: `translateFiles` (issue #15 item 4). Needs GEMINI_API_KEY, not
 * Appwrite; without it, the same message and exit 3 as `generate`.
 * @returns 0 (checks that still fail after the repair are listed; the draft is still written).
 */
export async function runTranslate(files: string[], options: TranslateCommandOptions): Promise<number> {
  const [{ aiSettings }, { translateFiles }, { loadConfig, loadDotEnv }] = await Promise.all([
    import("../../lib/ai/gemini.ts"),
    import("../../lib/ai/translate-file.ts"),
    import("../../lib/config.ts"),
  ]);
  loadDotEnv();
  const settings = aiSettings(loadConfig());
  if (!settings.apiKey) throw new (await import("../../lib/ai/gemini.ts")).AiNotConfiguredError();
  const results = await translateFiles(settings, {
    contentDir: options.dir,
    files,
    to: options.to,
    force: options.force,
  });
  for (const r of results) {
    if (options.json) {
      emitJson("translation", r);
      continue;
    }
    if (r.action === "skipped") {
      console.log(`${r.file}: ${r.reason ?? `${r.before}, left as is (--force translates it again)`}`);
      continue;
    }
    console.log(`Wrote ${r.file} from ${r.source} (draft: true, reviewed: false; model ${r.model}).`);
    if (r.unpublishes) {
      console.log(`  ! it was published: the next push makes it a draft (unpublished) until you remove draft: true`);
    }
    for (const v of r.violations) console.log(`  ✗ ${v.message}`);
  }
  const written = results.filter((r) => r.action === "written").length;
  if (options.json) emitJson("result", { written, skipped: results.length - written });
  else if (written > 0) {
    console.log("Next: read and correct it, `studio review <file>`, then remove `draft: true` and push.");
  }
  return EXIT.ok;
}
