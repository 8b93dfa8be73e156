/**
 * `studio generate` (issue #6 item 5): an AI draft written into `content/` as a file with `draft: true` and a
 * provenance record (model, date, topic), plus its image; pushed as a draft, never public.
 */
import { stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { formattedOrAsIs } from "../content/format.ts";
import { CONTENT_MODEL, imageInput, imageStem, inputFields } from "../../model/model.ts";
import { serializeContentFile } from "../content/write.ts";
import { makeDirectory } from "../make-dir.ts";
import type { RuleViolation } from "../html/rules.ts";
import { draftItem, type DraftKind } from "./draft.ts";
/** The author of a generated post when none is given. */
const DEFAULT_AUTHOR = "Studio Editorial Team";
import { AiNotConfiguredError, type AiSettings } from "./gemini.ts";
import { generateImage } from "./image.ts";

export type GenerateStep = "draft" | "image" | "write";

export interface GenerateOptions {
  contentDir: string;
  kind: DraftKind;
  topic: string;
  /** Also generate the featured image (post) or the logo (venture). */
  image?: boolean;
  /** The author of a post draft (the field the admin starts with the user's name). */
  author?: string;
  onStep?: (step: GenerateStep) => void;
  /** Clock for the provenance date and a post's published date (tests pass a fixed one). */
  now?: Date;
}

export interface GeneratedFile {
  /** The draft file, relative to the content root. */
  file: string;
  /** The image file, relative to the content root. */
  image: string | null;
  slug: string;
  violations: RuleViolation[];
  repaired: boolean;
  model: string;
  imageModel: string | null;
  /**
   * Why the image step failed (the draft was written without an image; issue #34: the text was thrown away),
   * or absent.
   */
  imageError?: unknown;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** `base`, or `base-2`, `base-3`… so that no existing draft or image is overwritten. */
async function freeSlug(contentDir: string, folder: string, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (
      !(await exists(path.join(contentDir, folder, `${slug}.html`))) &&
      !(await exists(path.join(contentDir, folder, `${slug}.md`)))
    ) {
      return slug;
    }
  }
}

/**
 * Drafts with the AI and writes the draft (and image) into `contentDir`.
 * @throws the errors of `draftContent` (nothing is written); an error of `generateImage` is returned as
 *   `imageError`, the draft being written without the image.
 */
export async function generateDraftFile(settings: AiSettings, options: GenerateOptions): Promise<GeneratedFile> {
  if (!settings.apiKey) throw new AiNotConfiguredError();
  const now = options.now ?? new Date();
  options.onStep?.("draft");
  const draft = await draftItem(settings, options.kind, options.topic);
  const spec = CONTENT_MODEL[options.kind];
  const fields = draft.fields as Record<string, string>;
  const folder = spec.folder;
  const slug = await freeSlug(options.contentDir, folder, draft.fields.slug);
  const title = fields[spec.title]!;

  let image: Awaited<ReturnType<typeof generateImage>> | null = null;
  let imageError: unknown;
  if (options.image) {
    options.onStep?.("image");
    // The text cost a model call and is worth keeping: an image that fails leaves a draft without one.
    image = await generateImage(settings, { kind: options.kind, title, slug: imageStem(options.kind, slug) }).catch(
      (error: unknown) => {
        imageError = error;
        return null;
      },
    );
  }

  options.onStep?.("write");
  const generated = {
    model: draft.model,
    ...(image ? { imageModel: image.model } : {}),
    date: now.toISOString(),
    topic: options.topic.trim(),
  };
  // The kind's fields from the draft; those the admin form starts with the user's name or today, likewise.
  const frontMatter: Record<string, unknown> = { slug };
  for (const [name, field] of inputFields(options.kind)) {
    if (field.initial === "userName") frontMatter[name] = options.author?.trim() || DEFAULT_AUTHOR;
    else if (field.initial === "today")
      frontMatter[name] = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    else if (fields[name] !== undefined) frontMatter[name] = fields[name];
  }
  frontMatter[imageInput(options.kind)] = image ? `../images/${image.fileName}` : undefined;
  Object.assign(frontMatter, { draft: true, generated });
  const body = fields[spec.body]!;
  await makeDirectory(path.join(options.contentDir, folder));
  if (image) {
    await makeDirectory(path.join(options.contentDir, "images"));
    await writeFile(path.join(options.contentDir, "images", image.fileName), image.bytes, { flag: "wx" });
  }
  const file = `${folder}/${slug}.html`;
  const text = serializeContentFile(options.kind, frontMatter, await formattedOrAsIs("html", body));
  await writeFile(path.join(options.contentDir, file), text, {
    flag: "wx",
  });
  return {
    file,
    image: image ? `images/${image.fileName}` : null,
    slug,
    violations: draft.violations,
    repaired: draft.repaired,
    model: draft.model,
    imageModel: image?.model ?? null,
    ...(imageError === undefined ? {} : { imageError }),
  };
}
