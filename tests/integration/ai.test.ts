import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { draftContent, TopicRequiredError } from "../../lib/ai/draft.ts";
import {
  AiNotConfiguredError,
  AiRequestError,
  AiResponseError,
  AiUnavailableError,
  type AiSettings,
} from "../../lib/ai/gemini.ts";
import { generateImage, TitleRequiredError } from "../../lib/ai/image.ts";
import { readContent } from "../../lib/content/read.ts";
import { startFakeGemini, type FakeGemini } from "../helpers/fake-gemini.ts";
import { studio as studioIn } from "../helpers/studio.ts";

/** An Appwrite that does not answer (port 9, discard). */
const UNREACHABLE = { endpoint: "http://127.0.0.1:9/v1", projectId: "p", apiKey: "k" };

let gemini: FakeGemini;
let settings: AiSettings;

beforeAll(async () => {
  gemini = await startFakeGemini();
});
afterAll(async () => gemini.close());
beforeEach(() => {
  gemini.requests.length = 0;
  settings = {
    apiKey: "test-key",
    textModel: "gemini-2.5-flash",
    imageModel: "gemini-2.5-flash-image",
    baseUrl: gemini.baseUrl,
    timeoutMs: 5000,
  };
});

const GOOD_POST = {
  title: "Why Small Agencies Win",
  slug: "why-small-agencies-win",
  excerpt: "Focus beats size.",
  content: "<h2>Focus</h2><p>One job. Done well.</p><ul><li>a</li></ul><blockquote>Small is fast.</blockquote>",
};
const GOOD_VENTURE = {
  name: "Ledger Loop",
  slug: "ledger-loop",
  shortDescription: "Bookkeeping for clinics.",
  caseStudy:
    "<h2>The Problem</h2><p>Books lag.</p><h2>Our Solution</h2><ul><li>Close monthly</li></ul>" +
    "<blockquote>Done by the tenth.</blockquote><h2>The Market Opportunity</h2><p>Every clinic.</p>",
};

describe("AI text drafts", () => {
  it("asks gemini-2.5-flash for JSON of the post shape with the content writer's instruction", async () => {
    gemini.script({ json: GOOD_POST });

    const draft = await draftContent(settings, "post", "  why small agencies win  ");

    expect(draft).toMatchObject({ fields: GOOD_POST, violations: [], repaired: false, model: "gemini-2.5-flash" });
    const [request] = gemini.requests;
    expect(request?.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(request?.headers["x-goog-api-key"]).toBe("test-key");
    expect(request?.body.contents[0].parts[0].text).toBe("why small agencies win");
    expect(request?.body.systemInstruction.parts[0].text).toMatch(/content writer for a venture studio/);
    expect(request?.body.generationConfig.responseMimeType).toBe("application/json");
    expect(request?.body.generationConfig.responseSchema).toMatchObject({
      type: "OBJECT",
      required: ["title", "slug", "excerpt", "content"],
    });
  });

  it("uses the business strategist's instruction and the venture shape for ventures", async () => {
    gemini.script({ json: GOOD_VENTURE });

    const draft = await draftContent(settings, "venture", "clinic bookkeeping");

    expect(draft.fields).toEqual(GOOD_VENTURE);
    expect(gemini.requests[0]?.body.systemInstruction.parts[0].text).toMatch(/business strategist/);
    expect(gemini.requests[0]?.body.generationConfig.responseSchema.required).toEqual([
      "name",
      "slug",
      "shortDescription",
      "caseStudy",
    ]);
  });

  it("asks once to repair broken content rules, naming them, and keeps the repaired draft", async () => {
    const broken = { ...GOOD_VENTURE, caseStudy: "<h1>Big</h1><h2>The Problem</h2><p>Books lag.</p>" };
    gemini.script({ json: broken }, { json: GOOD_VENTURE });

    const draft = await draftContent(settings, "venture", "clinic bookkeeping");

    expect(gemini.requests).toHaveLength(2);
    const repairPrompt = gemini.requests[1]?.body.contents[0].parts[0].text as string;
    expect(repairPrompt).toContain("uses h1; use only h2 and h3");
    expect(repairPrompt).toContain("add at least one blockquote");
    expect(repairPrompt).toContain("add the h2 section(s): Our Solution, The Market Opportunity");
    expect(draft).toMatchObject({ repaired: true, violations: [], fields: GOOD_VENTURE });
  });

  it.each([
    ["h1", { content: "<h1>x</h1><ul><li>a</li></ul><blockquote>q</blockquote>" }, "headings"],
    [
      "a long paragraph",
      { content: `<p>${"One. ".repeat(7)}</p><ul><li>a</li></ul><blockquote>q</blockquote>` },
      "paragraph-length",
    ],
    ["no list", { content: "<p>x</p><blockquote>q</blockquote>" }, "unordered-list"],
    ["no blockquote", { content: "<p>x</p><ul><li>a</li></ul>" }, "blockquote"],
  ])("returns the draft with the failed rule when the repair still breaks it (%s)", async (_name, change, rule) => {
    gemini.script({ json: { ...GOOD_POST, ...change } });

    const draft = await draftContent(settings, "post", "topic");

    expect(gemini.requests).toHaveLength(2);
    expect(draft.repaired).toBe(true);
    expect(draft.violations.map((v) => v.rule)).toEqual([rule]);
  });

  it("sanitizes the model's HTML and replaces an unusable slug", async () => {
    gemini.script({
      json: {
        ...GOOD_POST,
        title: "لماذا تنجح الوكالات الصغيرة",
        slug: "لماذا",
        content: `${GOOD_POST.content}<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>`,
      },
    });

    const draft = await draftContent(settings, "post", "topic");

    expect(draft.fields.content).not.toMatch(/<script|onerror|javascript:/i);
    expect(draft.fields.slug).toMatch(/^draft-[a-z0-9]+$/);
  });

  it("fails with a response error on malformed JSON or a missing field", async () => {
    gemini.script({ text: "{not json" });
    await expect(draftContent(settings, "post", "topic")).rejects.toBeInstanceOf(AiResponseError);
    gemini.script({ json: { title: "only a title" } });
    await expect(draftContent(settings, "post", "topic")).rejects.toThrow(
      /lacked required fields: slug, excerpt, content/,
    );
  });

  it.each([429, 500])("answers %s as 'unavailable' after at most one retry", async (status) => {
    gemini.script({ status });

    const error = await draftContent(settings, "post", "topic").catch((e: unknown) => e);

    expect(error).toBeInstanceOf(AiUnavailableError);
    expect((error as AiUnavailableError).status).toBe(status);
    expect(gemini.requests.length).toBeGreaterThanOrEqual(1);
    expect(gemini.requests.length).toBeLessThanOrEqual(2);
  });

  it("reports a refused request, a missing key and an empty topic clearly", async () => {
    gemini.script({ status: 403, error: "API key not valid" });
    await expect(draftContent(settings, "post", "topic")).rejects.toBeInstanceOf(AiRequestError);
    await expect(draftContent({ ...settings, apiKey: undefined }, "post", "topic")).rejects.toThrow(
      "AI drafting is not configured: set GEMINI_API_KEY",
    );
    await expect(draftContent(settings, "venture", "  ")).rejects.toThrow(
      new TopicRequiredError("Please enter a topic to generate details."),
    );
    expect(new AiNotConfiguredError().message).toBe("AI drafting is not configured: set GEMINI_API_KEY");
  });
});

describe("AI images", () => {
  it("asks the image model for one 16:9 image from the title and returns a JPEG named from the slug", async () => {
    const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: "#d4af37" } })
      .png()
      .toBuffer();
    gemini.script({ image: png });

    const image = await generateImage(settings, { kind: "post", title: "Why Small Agencies Win", slug: "why-small" });

    const request = gemini.requests[0]!;
    expect(request.path).toBe("/v1beta/models/gemini-2.5-flash-image:generateContent");
    expect(request.body.generationConfig).toMatchObject({
      responseModalities: ["IMAGE"],
      candidateCount: 1,
      imageConfig: { aspectRatio: "16:9" },
    });
    expect(request.body.contents[0].parts[0].text).toMatch(
      /Why Small Agencies Win.*abstract|abstract.*Why Small Agencies Win/is,
    );
    expect(request.body.contents[0].parts[0].text).toMatch(/dark palette with gold accents/i);
    expect(image).toMatchObject({ fileName: "why-small.jpg", mimeType: "image/jpeg", width: 64, height: 36 });
    expect(image.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it("names the file featured-image.jpg without a slug, and needs a title", async () => {
    gemini.script({
      image: await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
        .png()
        .toBuffer(),
    });
    expect((await generateImage(settings, { kind: "post", title: "T" })).fileName).toBe("featured-image.jpg");
    await expect(generateImage(settings, { kind: "post", title: " " })).rejects.toBeInstanceOf(TitleRequiredError);
  });

  it("fails with a response error when the answer is not a decodable image", async () => {
    gemini.script({ image: Buffer.from("<svg onload=alert(1)>") });
    await expect(generateImage(settings, { kind: "post", title: "T" })).rejects.toBeInstanceOf(AiResponseError);
    gemini.script({ text: "no image here" });
    await expect(generateImage(settings, { kind: "post", title: "T" })).rejects.toThrow(/returned no image/);
  });
});

describe("studio generate", () => {
  /** `studio <args>` in this process (tests/helpers/studio.ts) with `env` added; Appwrite unreachable: generate must not need it. */
  const studio = (args: string[], env: NodeJS.ProcessEnv) => studioIn(args, UNREACHABLE, env);

  it("writes a valid draft post with provenance and its image, and never publishes", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "generate-"));
    gemini.script(
      { json: GOOD_POST },
      {
        image: await sharp({ create: { width: 32, height: 18, channels: 3, background: "#111" } })
          .png()
          .toBuffer(),
      },
    );

    const run = await studio(["generate", "post", "--topic", "small agencies", "--image", "--dir", dir, "--json"], {
      GEMINI_API_KEY: "test-key",
      GEMINI_BASE_URL: gemini.baseUrl,
    });

    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    expect(result).toMatchObject({
      type: "result",
      file: "posts/why-small-agencies-win.html",
      image: "images/why-small-agencies-win.jpg",
    });
    const text = await readFile(path.join(dir, result.file), "utf8");
    expect(text).toMatch(/draft: true/);
    expect(text).toMatch(
      /generated:\n {2}model: gemini-2.5-flash\n {2}imageModel: gemini-2.5-flash-image\n {2}date: .+\n {2}topic: small agencies/,
    );
    const { items, issues } = await readContent(dir);
    expect(issues).toEqual([]);
    expect(items[0]).toMatchObject({ kind: "post", draft: true, slug: "why-small-agencies-win" });
  });

  it("says AI drafting is not configured without a key, and exits 3", async () => {
    const run = await studio(["generate", "venture", "--topic", "x"], { GEMINI_API_KEY: "" });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("AI drafting is not configured: set GEMINI_API_KEY");
  });
});
