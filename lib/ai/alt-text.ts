/**
 * "Suggest alt text" of the media library (issue #30 item 3): Gemini's text model looks at the image (its bytes
 * sent inline, multimodal) and drafts one alt text in the language asked, which the editor reviews before it
 * is stored or inserted. Same client, bounds and errors as drafting (`gemini.ts`, SECURITY C43).
 */
import { localeSpec, MAX_ALT_TEXT, type ContentLocale } from "../../model/model.ts";
import { AiResponseError, geminiClient, toAiError, type AiSettings } from "./gemini.ts";

/** The instruction sent with the image, for `locale`'s language. */
export function altTextPrompt(locale: ContentLocale): string {
  return [
    `Write the alt text of this image for a web page, in ${localeSpec(locale).ai.language}.`,
    "One short sentence (at most 125 characters) saying what the image shows and what matters in it;",
    'no "image of" or "picture of", no quotes, no markup. Answer with the alt text only.',
  ].join(" ");
}

/**
 * Drafts an alt text for the image `bytes` (a JPEG, PNG, GIF or WebP the library accepted) in `locale`.
 * @returns the text, one line, at most `MAX_ALT_TEXT` characters.
 * @throws {AiNotConfiguredError} without `GEMINI_API_KEY`; {AiUnavailableError}, {AiRequestError} as
 * `toAiError` maps the SDK's failure; {AiResponseError} when the model answers with no text.
 */
export async function suggestAltText(
  settings: AiSettings,
  image: { bytes: Uint8Array; mimeType: string },
  locale: ContentLocale,
): Promise<string> {
  const ai = geminiClient(settings);
  let text: string | undefined;
  try {
    const response = await ai.models.generateContent({
      model: settings.textModel,
      contents: [
        {
          role: "user",
          parts: [
            { inlineData: { mimeType: image.mimeType, data: Buffer.from(image.bytes).toString("base64") } },
            { text: altTextPrompt(locale) },
          ],
        },
      ],
      config: { candidateCount: 1, abortSignal: AbortSignal.timeout(settings.timeoutMs) },
    });
    text = response.text;
  } catch (error) {
    throw toAiError(error);
  }
  const alt = (text ?? "")
    .replace(/[<>]/g, "")
    .replace(/^["'«“]+|["'»”]+$/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_ALT_TEXT);
  if (!alt) throw new AiResponseError("The model returned no alt text.");
  return alt;
}
