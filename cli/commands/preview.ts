import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { CONTENT_MODEL, imageInput, kindFolders } from "../../model/model.ts";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Command } from "commander";
import type { Preview } from "../../lib/content/preview.ts";
import { interactive, port } from "../command-kit.ts";
import { EXIT, UsageError } from "../exit-codes.ts";
import { emitJson } from "../output.ts";

export interface PreviewCommandOptions {
  json?: boolean;
  web?: boolean;
  port?: number;
  interactive: boolean;
}

/** Declares `studio preview <file>` and its flags on `program`. */
export function registerPreview(program: Command): void {
  program
    .command("preview")
    .description(
      "Show a draft: metadata, validation and content rules, and the body as text; --web serves it in both locales.",
    )
    .argument("<file>", `a .md or .html file in ${kindFolders("or", "content/", false)}`)
    .option("--web", "serve the draft through the real site on a local port (nothing is published)")
    .option("--port <port>", "port for --web", port, 0)
    .option("--json", "print the preview as JSON")
    .action(async (file: string, options: Omit<PreviewCommandOptions, "interactive">) => {
      process.exitCode = await runPreview(file, { ...options, interactive: await interactive(options.json) });
    });
}

function plain(preview: Preview, displayValue: (value: unknown) => string): string {
  const lines = [`${preview.kind} · ${preview.file}`];
  for (const [key, value] of Object.entries(preview.frontMatter)) {
    lines.push(`  ${key.padEnd(17)}${displayValue(value)}`);
  }
  const problems = [
    ...preview.issues.map((i) => `${i.field}: ${i.message}`),
    ...preview.rules.map((r) => `content rule: ${r.message}`),
  ];
  lines.push(
    ...(problems.length ? problems.map((p) => `✗ ${p}`) : ["✓ valid, and follows the content rules"]),
    ...preview.warnings.map((w) => `! ${w.field}: ${w.message}`),
    "",
    preview.text,
  );
  return lines.join("\n");
}

/**
 * `studio preview <file>`: shows a draft in the terminal (Ink in a terminal, plain text otherwise, JSON with
 * `--json`); with `--web`, serves it through the real server-rendered pages on a local port, in both locales,
 * from a throwaway embedded server (nothing is pushed anywhere), until Ctrl-C.
 * @returns 0 when the draft is valid and follows the rules, 1 otherwise.
 */
export async function runPreview(file: string, options: PreviewCommandOptions): Promise<number> {
  const { displayValue, previewFile, previewJson } = await import("../../lib/content/preview.ts");
  const preview = await previewFile(file);
  if (options.json) emitJson("result", previewJson(preview));
  else if (options.interactive) await (await import("../views/preview-view.tsx")).renderPreview(preview);
  else console.log(plain(preview, displayValue));
  const ok = preview.issues.length === 0 && preview.rules.length === 0;
  if (options.web) {
    if (!preview.item)
      throw new UsageError(`${preview.file} is invalid; fix it before previewing it on the web.`, EXIT.invalidContent);
    await serveDraft(preview, options.port ?? 0);
  }
  return ok ? EXIT.ok : EXIT.invalidContent;
}

/** Copies the draft (as published, `draft` removed) and its image into a throwaway content folder. */
async function stageDraft(preview: Preview): Promise<string> {
  const [{ serializeContentFile }, { CONTENT_KINDS }] = await Promise.all([
    import("../../lib/content/write.ts"),
    import("../../model/content.ts"),
  ]);
  const item = preview.item!;
  const dir = await mkdtemp(path.join(tmpdir(), "studio-preview-"));
  const folder = path.join(dir, CONTENT_KINDS[item.kind].folder);
  await mkdir(path.join(dir, "images"), { recursive: true });
  await mkdir(folder, { recursive: true });
  const frontMatter: Record<string, unknown> = { ...item.frontMatter, slug: item.slug, draft: undefined };
  const imageKey = imageInput(item.kind);
  if (item.image && "path" in item.image) {
    await cp(item.image.path, path.join(dir, "images", item.image.name));
    frontMatter[imageKey] = `../images/${item.image.name}`;
  }
  await writeFile(
    path.join(folder, `${item.slug}.${item.format === "html" ? "html" : "md"}`),
    serializeContentFile(item.kind, frontMatter, item.body),
  );
  return dir;
}

async function serveDraft(preview: Preview, port: number): Promise<void> {
  const root = process.cwd();
  if (!existsSync(path.join(root, "web")) || !existsSync(path.join(root, "package.json"))) {
    throw new UsageError("studio preview --web runs from the project folder (where package.json and web/ are).");
  }
  const [
    { startEmulator },
    { createAdminServices },
    { applyContentSchema: applySchema },
    { push },
    { ensureBuild },
    { startSite },
    schema,
  ] = await Promise.all([
    import("../../embedded-appwrite/server.ts"),
    import("../../lib/appwrite/client.ts"),
    import("../../lib/appwrite/content-schema.ts"),
    import("../../lib/publish/push.ts"),
    import("../../server/build.ts"),
    import("../../server/serve-site.ts"),
    import("../../model/appwrite.json", { with: { type: "json" } }),
  ]);
  const contentDir = await stageDraft(preview);
  const dataDir = await mkdtemp(path.join(tmpdir(), "studio-preview-data-"));
  const emulator = await startEmulator({ dataDir, port: 0 });
  const cleanup = async () => {
    await emulator.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(contentDir, { recursive: true, force: true });
  };
  try {
    const services = createAdminServices(emulator);
    await applySchema(services, schema.default as Parameters<typeof applySchema>[1]);
    await push(services, { contentDir });
    if (await ensureBuild(root, { quiet: true })) console.log("Built the site.");
    process.env.APPWRITE_ENDPOINT = emulator.endpoint;
    process.env.APPWRITE_PROJECT_ID = emulator.projectId;
    process.env.APPWRITE_API_KEY = emulator.apiKey;
    const site = await startSite({ root, port });
    const route = CONTENT_MODEL[preview.kind].publicPath;
    console.log(`Previewing ${preview.file} (not published anywhere):`);
    console.log(`  English: ${site.url}/en/${route}/${preview.item!.slug}`);
    console.log(`  Arabic:  ${site.url}/ar/${route}/${preview.item!.slug}`);
    console.log("Press Ctrl-C to stop.");
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await site.close();
  } finally {
    await cleanup();
  }
}
