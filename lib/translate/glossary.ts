/**
 * The glossary (`content/glossary.yaml`, issue #15 item 4): the studio's term pairs, given to the AI
 * translator and checked after each translation. A YAML list of `{ en: …, ar: … }`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { AbortError, EXIT } from "../errors.ts";
import type { GlossaryEntry } from "./checks.ts";

export const GLOSSARY_FILE = "glossary.yaml";

const glossarySchema = z.array(z.strictObject({ en: z.string().trim().min(1), ar: z.string().trim().min(1) }));

/** The glossary file is not a list of `{ en, ar }` pairs. */
export class GlossaryError extends AbortError {
  override name = "GlossaryError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.invalidContent });
  }
}

/**
 * The glossary of `contentDir` (`glossary.yaml`); none (an empty list) when the file does not exist.
 * @throws {GlossaryError} when the file is not YAML or not a list of `{ en, ar }` pairs.
 */
export async function readGlossary(contentDir: string): Promise<GlossaryEntry[]> {
  const file = path.join(contentDir, GLOSSARY_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    throw new GlossaryError(`${file} is not valid YAML (${(error as Error).message}); fix it.`);
  }
  const parsed = glossarySchema.safeParse(data ?? []);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join(".") ?? "";
    throw new GlossaryError(
      `${file}: ${where}: expected a list of entries like "- { en: venture studio, ar: استوديو المشاريع }".`,
    );
  }
  return parsed.data;
}
