/**
 * AI images (spec §7 "Image generation"; issue #6): one image from the post title (abstract, minimalist,
 * dark palette with gold accents), 16:9, as a JPEG file named from the slug, or `featured-image`, with `.jpg`.
 * Ventures get a square logo mark the same way. Generated through `generateContent` with an image model (see
 * docs/decisions/0003-ai-drafting.md), then re-encoded as JPEG with sharp, which also checks it is an image.
 */
import { CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import { KIND_PROMPTS } from "./prompts.ts";
import { Modality } from "@google/genai";
import sharp, { type OutputInfo } from "sharp";
import { AiResponseError, geminiClient, toAiError, type AiSettings } from "./gemini.ts";

/** Images larger than this are refused before decoding (SECURITY C35: 40 megapixels). */
const MAX_PIXELS = 40_000_000;

export interface GeneratedImage {
  /** JPEG bytes. */
  bytes: Buffer;
  /** `<slug>.jpg`, or `featured-image.jpg` without a slug. */
  fileName: string;
  mimeType: "image/jpeg";
  width: number;
  height: number;
  model: string;
}

/** Thrown without a title (spec §5: "Please generate or enter a title first to create a relevant image."). */
export class TitleRequiredError extends Error {
  override name = "TitleRequiredError";
  constructor() {
    super("Please generate or enter a title first to create a relevant image.");
  }
}

/** The image prompt for a post title or a venture name. */
export function imagePrompt(kind: ContentKind, title: string): string {
  return KIND_PROMPTS[kind].imagePrompt.replace("{title}", () => title);
}

/**
 * Generates the featured image of a post (16:9) or the logo of a venture (1:1).
 * @throws {TitleRequiredError} without a title; {AiNotConfiguredError}, {AiUnavailableError}, {AiRequestError}
 * as `draftContent`; {AiResponseError} when no decodable image comes back.
 */
export async function generateImage(
  settings: AiSettings,
  input: { kind: ContentKind; title: string; slug?: string },
  options: { signal?: AbortSignal } = {},
): Promise<GeneratedImage> {
  const title = input.title.trim();
  if (!title) throw new TitleRequiredError();
  const ai = geminiClient(settings);
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let data: string | undefined;
  try {
    const response = await ai.models.generateContent({
      model: settings.imageModel,
      contents: imagePrompt(input.kind, title),
      config: {
        responseModalities: [Modality.IMAGE],
        candidateCount: 1,
        imageConfig: { aspectRatio: CONTENT_MODEL[input.kind].imageAspect },
        abortSignal: signal,
      },
    });
    data = response.candidates?.[0]?.content?.parts?.find((p) => p.inlineData?.data)?.inlineData?.data;
  } catch (error) {
    throw toAiError(error);
  }
  if (!data) throw new AiResponseError("The model returned no image.");
  let jpeg: { data: Buffer; info: OutputInfo };
  try {
    jpeg = await sharp(Buffer.from(data, "base64"), { limitInputPixels: MAX_PIXELS })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new AiResponseError(`The model's image could not be decoded: ${(error as Error).message}`);
  }
  return {
    bytes: jpeg.data,
    fileName: `${input.slug?.trim() || "featured-image"}.jpg`,
    mimeType: "image/jpeg",
    width: jpeg.info.width,
    height: jpeg.info.height,
    model: settings.imageModel,
  };
}
