import type { Command } from "commander";
import type { AppwriteTarget } from "../../lib/appwrite/client.ts";
import type { AppwriteSchema } from "../../lib/appwrite/setup.ts";
import type { PhaseCounts } from "../../lib/transfer/events.ts";
import type { TransferReport } from "../../lib/transfer/transfer.ts";
import { withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";
import { emitJson } from "../output.ts";

interface TransferFlags {
  toEndpoint?: string;
  toProject?: string;
  toDataDir?: string;
  dryRun?: boolean;
  verifyOnly?: boolean;
  json?: boolean;
}

/** Declares `studio transfer` and its flags on `program`. */
export function registerTransfer(program: Command): void {
  program
    .command("transfer")
    .description(
      "Move the whole site (schema, content, images, history, submissions, team, users with their passwords) to another Appwrite, keeping ids.",
    )
    .option("--to-endpoint <url>", "the target's API endpoint, https://…/v1 (or TARGET_APPWRITE_ENDPOINT)")
    .option("--to-project <id>", "the target's project id (or TARGET_APPWRITE_PROJECT_ID)")
    .option("--to-data-dir <dir>", "move to the embedded server of this folder instead (back from a real Appwrite)")
    .option("--dry-run", "count what would be written; write nothing")
    .option("--verify-only", "compare both sides only")
    .option("--json", "print NDJSON events and a final result line")
    .addHelpText(
      "after",
      `
The source is this studio's Appwrite (APPWRITE_ENDPOINT, or the embedded server of DATA_DIR); it is only read.
The target's API key is read from TARGET_APPWRITE_API_KEY (never a flag: it would stay in shell history).
Run it again after an interruption: it writes only what is missing or different. It ends by comparing both
sides: exit 5 when they differ (each difference printed). README: "Move to a real Appwrite".`,
    )
    .action(async (options: TransferFlags) => withContext(options.json, (c) => runTransfer(c, options)));
}

/** The target from flags and `TARGET_APPWRITE_*`; throws an exit-3 error naming what is missing. */
async function targetFrom(options: TransferFlags): Promise<{ target: AppwriteTarget; close(): Promise<void> }> {
  const { AbortError } = await import("../../lib/errors.ts");
  if (options.toDataDir) {
    const { openEmbeddedEmulator } = await import("../../embedded-appwrite/embedded.ts");
    const path = await import("node:path");
    const embedded = await openEmbeddedEmulator({ dataDir: path.resolve(options.toDataDir), port: 0 });
    return { target: embedded, close: () => embedded.close() };
  }
  const endpoint = options.toEndpoint ?? process.env["TARGET_APPWRITE_ENDPOINT"];
  const projectId = options.toProject ?? process.env["TARGET_APPWRITE_PROJECT_ID"];
  const apiKey = process.env["TARGET_APPWRITE_API_KEY"];
  const missing = [
    !endpoint && "--to-endpoint (or TARGET_APPWRITE_ENDPOINT)",
    !projectId && "--to-project (or TARGET_APPWRITE_PROJECT_ID)",
    !apiKey && "TARGET_APPWRITE_API_KEY",
  ].filter(Boolean);
  if (missing.length > 0 || !endpoint || !projectId || !apiKey) {
    throw new AbortError(`studio transfer needs the target: ${missing.join(", ")}.`, {
      exitCode: EXIT.backend,
      nextSteps:
        'Create an API key on the target with the scopes the README lists under "Move to a real Appwrite", then set TARGET_APPWRITE_API_KEY and give --to-endpoint and --to-project (or --to-data-dir for the embedded server).',
    });
  }
  if (!/^https?:\/\/[^/]+/.test(endpoint)) {
    throw new AbortError(
      `--to-endpoint must be an http(s) URL such as https://cloud.appwrite.io/v1, not "${endpoint}".`,
      {
        exitCode: EXIT.usage,
      },
    );
  }
  return { target: { endpoint, projectId, apiKey }, close: async () => {} };
}

function countsLine(c: PhaseCounts, dryRun: boolean): string {
  const verb = dryRun ? ["would create", "would update"] : ["created", "updated"];
  return `${c.phase}${c.scope ? ` ${c.scope}` : ""}: ${verb[0]} ${c.create}, ${verb[1]} ${c.update}, unchanged ${c.unchanged}`;
}

/**
 * `studio transfer`: moves the site from this studio's Appwrite to the target (`lib/transfer/transfer.ts`),
 * printing progress on stderr and a summary (or NDJSON with `--json`).
 * @returns 0 when the target holds what the source holds; 5 when the verify step finds differences.
 * @throws {AbortError} for a missing or unusable target (exit 3), the same project on both sides (exit 2).
 */
export async function runTransfer(context: CommandContext, options: TransferFlags): Promise<number> {
  const [{ transferSite }, { transferSide }, { AbortError }, schema] = await Promise.all([
    import("../../lib/transfer/transfer.ts"),
    import("../../lib/transfer/side.ts"),
    import("../../lib/errors.ts"),
    import("../../model/appwrite.json", { with: { type: "json" } }),
  ]);
  const { target, close } = await targetFrom(options);
  try {
    const from = context.services.target;
    if (
      from.endpoint.replace(/\/+$/, "") === target.endpoint.replace(/\/+$/, "") &&
      from.projectId === target.projectId
    ) {
      throw new AbortError("The source and the target are the same project.", {
        exitCode: EXIT.usage,
        nextSteps: "Point --to-endpoint/--to-project (or --to-data-dir) at another project.",
      });
    }
    const dryRun = options.dryRun ?? false;
    const report: TransferReport = await transferSite(
      transferSide("source", from),
      transferSide("target", target),
      schema.default as AppwriteSchema,
      {
        dryRun,
        verifyOnly: options.verifyOnly,
        events: {
          onProgress: (event) => {
            if (options.json) emitJson("progress", event);
            else if (process.stderr.isTTY)
              process.stderr.write(`\r${event.phase} ${event.scope}: ${event.done}/${event.total}\x1b[K`);
          },
          onPhase: (counts) => {
            if (options.json) emitJson("phase", counts);
            else process.stderr.write(`${process.stderr.isTTY ? "\r\x1b[K" : ""}${countsLine(counts, dryRun)}\n`);
          },
          onNote: (message) => (options.json ? emitJson("note", { message }) : console.error(`note: ${message}`)),
        },
      },
    ).catch((error: unknown) => {
      if (error instanceof Error && /missing scopes/.test(error.message)) {
        throw new AbortError(`An API key lacks a scope: ${error.message}`, {
          exitCode: EXIT.backend,
          nextSteps:
            "Give the target's key (and the source's) the scopes the README lists under \"Move to a real Appwrite\".",
          cause: error,
        });
      }
      throw error;
    });
    const differences = report.differences ?? [];
    if (options.json) emitJson("result", { dryRun, ...report });
    else {
      if (dryRun) console.log("Dry run: nothing was written.");
      else if (report.differences) {
        for (const d of differences.slice(0, 50)) console.log(`differs: ${d.scope} ${d.id}: ${d.problem}`);
        if (differences.length > 50) console.log(`… and ${differences.length - 50} more.`);
        console.log(
          differences.length === 0
            ? "Verified: the target holds what the source holds."
            : `Verify found ${differences.length} difference(s): run studio transfer again, or look at the records named.`,
        );
      }
    }
    return differences.length > 0 ? EXIT.partialFailure : EXIT.ok;
  } finally {
    await close();
  }
}
