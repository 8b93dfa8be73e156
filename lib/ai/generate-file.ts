/**
 * `studio generate` (issue #6 item 5): an AI draft written into `content/` as a file with `draft: true` and a
 * provenance record (model, date, topic), plus its image; never published.
 */
import { stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BlogDraft, VentureDraft } from "../../schemas/ai.ts";
import { CONTENT_KINDS } from "../../schemas/content.ts";
import { formattedOrAsIs } from "../content/format.ts";
import { serializeContentFile } from "../content/write.ts";
import { makeDirectory } from "../make-dir.ts";
import type { RuleViolation } from "../html/rules.ts";
import { draftContent, type DraftKind } from "./draft.ts";
import { AiNotConfiguredError, type AiSettings } from "./gemini.ts";
import { generateImage } from "./image.ts";

export type GenerateStep = "draft" | "image" | "write";

export interface GenerateOptions {
  contentDir: string;
  kind: DraftKind;
  topic: string;
  /** Also generate the featured image (post) or the logo (venture). */
  image?: boolean;
  /** `authorName` of a post draft. */
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
 * @throws the errors of `draftContent` and `generateImage`; nothing is written when they throw.
 */
export async function generateDraftFile(settings: AiSettings, options: GenerateOptions): Promise<GeneratedFile> {
  if (!settings.apiKey) throw new AiNotConfiguredError();
  const now = options.now ?? new Date();
  options.onStep?.("draft");
  const draft =
    options.kind === "post"
      ? await draftContent(settings, "post", options.topic)
      : await draftContent(settings, "venture", options.topic);
  const folder = CONTENT_KINDS[options.kind].folder;
  const slug = await freeSlug(options.contentDir, folder, draft.fields.slug);
  const title = options.kind === "post" ? (draft.fields as BlogDraft).title : (draft.fields as VentureDraft).name;

  let image: Awaited<ReturnType<typeof generateImage>> | null = null;
  if (options.image) {
    options.onStep?.("image");
    image = await generateImage(settings, {
      kind: options.kind,
      title,
      slug: options.kind === "post" ? slug : `${slug}-logo`,
    });
  }

  options.onStep?.("write");
  const generated = {
    model: draft.model,
    ...(image ? { imageModel: image.model } : {}),
    date: now.toISOString(),
    topic: options.topic.trim(),
  };
  const imageRef = image ? `../images/${image.fileName}` : undefined;
  const frontMatter: Record<string, unknown> =
    options.kind === "post"
      ? {
          title,
          slug,
          excerpt: (draft.fields as BlogDraft).excerpt,
          authorName: options.author?.trim() || "Studio Editorial Team",
          publishedDate: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())),
          featuredImage: imageRef,
          draft: true,
          generated,
        }
      : {
          name: title,
          slug,
          shortDescription: (draft.fields as VentureDraft).shortDescription,
          logo: imageRef,
          draft: true,
          generated,
        };
  const body = options.kind === "post" ? (draft.fields as BlogDraft).content : (draft.fields as VentureDraft).caseStudy;
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
  };
}
