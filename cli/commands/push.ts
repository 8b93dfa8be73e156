import { formatIssues } from "../../lib/content/read.ts";
import { push, type PushEvent, type PushResult } from "../../lib/publish/push.ts";
import type { CommandContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";

export interface PushCommandOptions {
  dir: string;
  dryRun?: boolean;
  json?: boolean;
}

const VERB = { create: "create", update: "update", unchanged: "unchanged" } as const;

function plainLine(event: PushEvent, dryRun: boolean): string | null {
  switch (event.type) {
    case "validated":
      return `Read content: ${event.valid} publishable, ${event.invalid} invalid, ${event.drafts} draft(s).`;
    case "planned":
      return null;
    case "item": {
      const r = event.result;
      const what = `${r.kind} ${r.slug} (${r.file})`;
      const changes = r.action === "update" ? ` [${r.changes.join(", ")}]` : "";
      if (r.status === "failed") return `[${event.done}/${event.total}] failed ${what}: ${r.error}`;
      return `[${event.done}/${event.total}] ${dryRun && r.action !== "unchanged" ? "would " : ""}${VERB[r.action]} ${what}${changes}`;
    }
  }
}

function summary(result: PushResult): string {
  const prefix = result.dryRun ? "Dry run, nothing written: " : "";
  return `${prefix}${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.failed} failed.`;
}

/**
 * `studio push`: validates `content/`, plans against Appwrite and applies (unless `--dry-run`).
 * Output: an Ink view in a terminal; plain lines otherwise; `{created, updated, unchanged, failed}` JSON with
 * `--json`. @returns the exit code: 0, or 1 when anything was invalid or failed.
 */
export async function runPush(context: CommandContext, options: PushCommandOptions): Promise<number> {
  let result: PushResult;
  if (context.interactive) {
    const { renderPush } = await import("../views/push-view.tsx");
    result = await renderPush((onEvent) =>
      push(context.services, { contentDir: options.dir, dryRun: options.dryRun, onEvent }),
    );
  } else {
    result = await push(context.services, {
      contentDir: options.dir,
      dryRun: options.dryRun,
      onEvent: options.json
        ? undefined
        : (event) => {
            const line = plainLine(event, options.dryRun ?? false);
            if (line) console.log(line);
          },
    });
  }
  if (options.json) {
    const { created, updated, unchanged, failed } = result;
    console.log(JSON.stringify({ created, updated, unchanged, failed }));
  } else {
    if (result.issues.length)
      console.error(`Invalid content (fix these files; nothing of them was written):\n${formatIssues(result.issues)}`);
    if (!context.interactive) console.log(summary(result));
  }
  return result.failed > 0 ? EXIT.failed : EXIT.ok;
}
