import { Argument, type Command } from "commander";
import type { GenerateStep } from "../../lib/ai/generate-file.ts";
import { interactive } from "../command-kit.ts";
import { EXIT } from "../exit-codes.ts";
import { emitJson } from "../output.ts";
import { CONTENT_KIND_NAMES, type ContentKind } from "../../model/model.ts";

export interface GenerateCommandOptions {
  topic: string;
  dir: string;
  image?: boolean;
  author?: string;
  json?: boolean;
  interactive: boolean;
}

/** Declares `studio generate <kind>` and its flags on `program`. */
export function registerGenerate(program: Command): void {
  program
    .command("generate")
    .description(
      "Draft a venture or a post with the AI into content/ (draft: true: pushed as a draft, never public). Needs GEMINI_API_KEY.",
    )
    .addArgument(new Argument("<kind>", "what to draft").choices(CONTENT_KIND_NAMES))
    .requiredOption("--topic <text>", "what the draft is about")
    .option("--image", "also generate the featured image (post) or logo (venture)")
    .option("--author <name>", "author name of a post draft", "Studio Editorial Team")
    .option("--dir <path>", "content folder", "content")
    .option("--json", "print NDJSON steps and a final result line")
    .action(async (kind: ContentKind, options: Omit<GenerateCommandOptions, "interactive">) => {
      process.exitCode = await runGenerate(kind, { ...options, interactive: await interactive(options.json) });
    });
}

const STEP_TEXT: Record<GenerateStep, string> = {
  draft: "Drafting the text with the AI…",
  image: "Generating the image…",
  write: "Writing the draft file…",
};

/**
 * `studio generate venture|post --topic "…"`: an AI draft written into `content/` with `draft: true` (never
 * published). Needs GEMINI_API_KEY, not Appwrite.
 * @returns 0 (violations that survived the repair are listed, the draft is still written).
 */
export async function runGenerate(kind: ContentKind, options: GenerateCommandOptions): Promise<number> {
  const [{ aiSettings }, { generateDraftFile }, { loadConfig, loadDotEnv }] = await Promise.all([
    import("../../lib/ai/gemini.ts"),
    import("../../lib/ai/generate-file.ts"),
    import("../../lib/config.ts"),
  ]);
  loadDotEnv();
  const settings = aiSettings(loadConfig());
  const onStep = (step: GenerateStep) => {
    if (options.json) emitJson("step", { step });
    else if (options.interactive) process.stderr.write(`\u001b[2K\r${STEP_TEXT[step]}`);
    else console.log(STEP_TEXT[step]);
  };
  const result = await generateDraftFile(settings, {
    contentDir: options.dir,
    kind,
    topic: options.topic,
    image: options.image,
    author: options.author,
    onStep,
  });
  if (options.interactive && !options.json) process.stderr.write("\u001b[2K\r");
  const { imageError, ...written } = result;
  // The image failed, the text was kept (issue #34): the run still fails, with the image's error and exit code.
  const imageFailed = imageError === undefined ? null : await describeImageError(imageError);
  if (options.json) {
    emitJson("result", { ...written, ...(imageFailed ? { imageError: imageFailed.message } : {}) });
    if (imageFailed) emitJson("error", { exit: imageFailed.exit, message: imageFailed.message });
    return imageFailed?.exit ?? EXIT.ok;
  }
  console.log(
    `Wrote ${result.file}${result.image ? ` and ${result.image}` : ""} (draft: true; model ${result.model}).`,
  );
  if (result.violations.length > 0) {
    console.log(
      `The draft still breaks ${result.violations.length} content rule(s)${result.repaired ? " after one repair" : ""}:`,
    );
    for (const v of result.violations) console.log(`  ✗ ${v.message}`);
  }
  console.log(`Next: edit it, \`studio preview ${options.dir}/${result.file}\`, then remove \`draft: true\` and push.`);
  if (imageFailed) {
    console.error(`studio: the image could not be generated, so the draft has none: ${imageFailed.message}`);
    console.error("  Add an image by hand (images/, then the front matter), or run generate --image again later.");
  }
  return imageFailed?.exit ?? EXIT.ok;
}

/** The message and exit code of the image step's error, as `studio` reports errors (`classify`). */
async function describeImageError(error: unknown): Promise<{ message: string; exit: number }> {
  const [{ classify }, { AbortError }] = await Promise.all([
    import("../report-error.ts"),
    import("../../lib/errors.ts"),
  ]);
  const classified = await classify(error);
  if (classified instanceof AbortError) return { message: classified.message, exit: classified.exitCode };
  return { message: classified instanceof Error ? classified.message : String(classified), exit: EXIT.partialFailure };
}
