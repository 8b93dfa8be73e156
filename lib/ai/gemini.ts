/**
 * Gemini access for drafting (issue #6; spec §7 "AI calls", moved to the server: the key never reaches a
 * browser). One client per call site, bounded: a per-request timeout, at most one retry (SECURITY C43:
 * `retryOptions.attempts ≤ 2`), and one overall deadline for the whole operation.
 */
import { ApiError, GoogleGenAI, type GenerateContentConfig } from "@google/genai";
import type { z } from "zod";
import type { AppConfig } from "../config.ts";
import { AbortError, EXIT } from "../errors.ts";

/** What drafting needs from the configuration. */
export interface AiSettings {
  apiKey: string | undefined;
  textModel: string;
  imageModel: string;
  baseUrl: string | undefined;
  /** Budget of one drafting operation (retries and repair included), in ms. */
  timeoutMs: number;
}

/** The AI settings of an application configuration. */
export function aiSettings(config: AppConfig): AiSettings {
  return {
    apiKey: config.geminiApiKey,
    textModel: config.geminiTextModel,
    imageModel: config.geminiImageModel,
    baseUrl: config.geminiBaseUrl,
    timeoutMs: config.geminiTimeoutMs,
  };
}

const AI_NEXT_STEPS =
  "The model may be unavailable: try again later. If it keeps failing, check GEMINI_API_KEY and GEMINI_TEXT_MODEL / GEMINI_IMAGE_MODEL.";

/** No `GEMINI_API_KEY`: AI features say so instead of failing later. */
export class AiNotConfiguredError extends AbortError {
  override name = "AiNotConfiguredError";
  constructor() {
    super("AI drafting is not configured: set GEMINI_API_KEY", {
      exitCode: EXIT.backend,
      nextSteps: "Set GEMINI_API_KEY in the environment or .env, then run the command again.",
    });
  }
}

/** The model did not answer usefully: rate limited (429), failing (5xx), unreachable, or out of time. */
export class AiUnavailableError extends AbortError {
  override name = "AiUnavailableError";
  constructor(
    message: string,
    /** HTTP status from Gemini, when there was one. */
    readonly status?: number,
  ) {
    super(message, { exitCode: EXIT.backend, nextSteps: AI_NEXT_STEPS });
  }
}

/** Gemini refused the request itself (4xx other than 429: a bad key, a model that does not exist…). */
export class AiRequestError extends AbortError {
  override name = "AiRequestError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message, { exitCode: EXIT.backend, nextSteps: AI_NEXT_STEPS });
  }
}

/** The model answered, but not with what was asked (malformed JSON, a missing field, no image). */
export class AiResponseError extends AbortError {
  override name = "AiResponseError";
  constructor(message: string) {
    super(message, { exitCode: EXIT.backend, nextSteps: AI_NEXT_STEPS });
  }
}

/**
 * A Gemini client for `settings`.
 * @throws {AiNotConfiguredError} without an API key.
 */
export function geminiClient(settings: AiSettings): GoogleGenAI {
  if (!settings.apiKey) throw new AiNotConfiguredError();
  return new GoogleGenAI({
    apiKey: settings.apiKey,
    httpOptions: {
      ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
      timeout: settings.timeoutMs,
      retryOptions: { attempts: 2, initialDelay: 0.5, maxDelay: 2 },
    },
  });
}

/**
 * Translates an SDK failure into this module's errors (429/5xx/timeouts → unavailable; other 4xx → request).
 * Errors that are already ours pass through.
 */
export function toAiError(error: unknown): Error {
  if (error instanceof AiUnavailableError || error instanceof AiRequestError || error instanceof AiResponseError)
    return error;
  if (error instanceof AiNotConfiguredError) return error;
  if (error instanceof ApiError) {
    if (error.status === 429)
      return new AiUnavailableError("Gemini is rate limiting requests (429); try again later.", 429);
    if (error.status >= 500)
      return new AiUnavailableError(`Gemini failed (${error.status}); try again later.`, error.status);
    return new AiRequestError(`Gemini refused the request (${error.status}): ${error.message}`, error.status);
  }
  const name = (error as Error | undefined)?.name;
  if (name === "AbortError" || name === "TimeoutError") return new AiUnavailableError("Gemini did not answer in time.");
  return new AiUnavailableError(`Gemini could not be reached: ${(error as Error)?.message ?? String(error)}`);
}

/**
 * Asks `model` of `ai` for `contents` with `config` (a JSON response schema) and parses the answer with
 * `schema`: the one request-and-parse step of AI drafting and translation.
 * @throws {AiUnavailableError | AiRequestError} as `toAiError` maps the SDK's failure.
 * @throws {AiResponseError} when the answer is not JSON, or lacks a field `schema` requires (named).
 */
export async function askForJson<T>(
  ai: GoogleGenAI,
  model: string,
  config: GenerateContentConfig,
  contents: string,
  schema: z.ZodType<T>,
): Promise<T> {
  let text: string | undefined;
  try {
    text = (await ai.models.generateContent({ model, contents, config })).text;
  } catch (error) {
    throw toAiError(error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text ?? "");
  } catch {
    throw new AiResponseError("The model's answer was not valid JSON.");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join(".") || "answer").join(", ");
    throw new AiResponseError(`The model's answer lacked required fields: ${fields}.`);
  }
  return parsed.data;
}
