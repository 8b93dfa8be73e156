/**
 * Front matter is data, never code (SECURITY C62, issue #26 item 1). gray-matter picks its engine from the
 * opening fence (`---js` is evaluated as JavaScript whatever `language` says) and parses YAML with js-yaml,
 * which expands aliases without a bound. Every reader of content files goes through `parseFrontMatter`:
 * only a plain `---` fence is read, YAML is parsed by the `yaml` package (the one `write.ts` writes with)
 * with a bound on alias expansion, and every other engine gray-matter knows is replaced by one that refuses.
 */
import matter from "gray-matter";
import { parseDocument, Schema } from "yaml";
import { parseSimpleYaml } from "./simple-yaml.ts";

/** A front matter that is not plain YAML data: `line` is 1-based when the YAML parser names one. */
export class FrontMatterError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    /** The file opens with a fence that names a language: the message is the whole explanation. */
    readonly fence = false,
  ) {
    super(message);
    this.name = "FrontMatterError";
  }
}

/**
 * At most this many alias expansions per front matter. A real file uses none; a "billion laughs" file
 * (9 levels of 9 aliases) needs millions. The `yaml` package's own default is 100.
 */
const MAX_ALIAS_COUNT = 20;

/**
 * Parses one YAML front-matter block into a plain record: YAML 1.2 core schema plus timestamps (unquoted
 * dates stay `Date`s, as they were under js-yaml), no custom tags, duplicate keys refused.
 * @throws FrontMatterError when the block is not valid YAML, uses an unknown tag, expands more than
 *   `MAX_ALIAS_COUNT` aliases, or is not a mapping of fields.
 */
/**
 * The schema of `parseYamlBlock`, built once (`yaml` accepts a `Schema` for its `schema` option): what
 * `{ schema: "core", customTags: ["timestamp"] }` builds on every call, a third of a small block's parse time
 * (issue #33 item 5: a re-push parses every file's front matter).
 */
const FRONT_MATTER_SCHEMA = new Schema({ schema: "core", customTags: ["timestamp"], resolveKnownTags: true });

function parseYamlBlock(source: string): Record<string, unknown> {
  // Plain `key: text` and `key: date` lines, nearly every file: read without building a YAML document.
  const simple = parseSimpleYaml(source);
  if (simple) return simple;
  const doc = parseDocument(source, { schema: FRONT_MATTER_SCHEMA, uniqueKeys: true, logLevel: "silent" });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const reason = (problem.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    throw new FrontMatterError(reason, problem.linePos?.[0].line);
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // yaml: "Excessive alias count indicates a resource exhaustion attack"
    throw new FrontMatterError(
      `too many aliases (*name): at most ${MAX_ALIAS_COUNT} are expanded (${(error as Error).message})`,
    );
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== "object" || Array.isArray(data) || data instanceof Date) {
    throw new FrontMatterError("the front matter is not a list of fields");
  }
  return data as Record<string, unknown>;
}

const refuse = (language: string) => () => {
  throw new FrontMatterError(
    `front matter in ${language} is never evaluated; only YAML between two --- lines is read`,
    1,
    true,
  );
};

/**
 * gray-matter's engines, every one given here: its defaults (js-yaml, JSON, `eval` for JavaScript) are
 * all replaced, so no fence reaches code even if the fence check below were bypassed.
 */
const ENGINES = {
  yaml: { parse: parseYamlBlock },
  json: { parse: refuse("JSON") },
  javascript: { parse: refuse("JavaScript") },
  coffee: { parse: refuse("CoffeeScript") },
  toml: { parse: refuse("TOML") },
};

/** The opening line of a file that starts with a front-matter fence (after an optional BOM), else null. */
const OPENING_FENCE = /^\uFEFF?---(?!-)([^\r\n]*)/;

/**
 * Splits a content file into its front matter and body.
 * @param text the file's UTF-8 text.
 * @returns `data` (the front matter's fields; `{}` when there is none) and `content` (the text after the
 *   closing `---`).
 * @throws FrontMatterError when the opening fence names a language (`---js`, `---json`, `---yaml`, …): only a
 *   plain `---` line opens front matter; or when the YAML is invalid, expands too many aliases or is not a
 *   mapping (see `parseYamlBlock`).
 */
export function parseFrontMatter(text: string): { data: Record<string, unknown>; content: string } {
  const language = OPENING_FENCE.exec(text)?.[1]?.trim();
  if (language) {
    throw new FrontMatterError(
      `the first line "---${language.slice(0, 40)}" names a front-matter language; only plain YAML is read ` +
        `(nothing in a content file is ever run): make the first line just ---`,
      1,
      true,
    );
  }
  // Passing options also disables gray-matter's cache, which would share one mutable object between calls.
  const parsed = matter(text, { language: "yaml", engines: ENGINES });
  return { data: parsed.data, content: parsed.content };
}
