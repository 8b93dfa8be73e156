import { InvalidArgumentError, type Command } from "commander";
import { isInboxKind, isInboxState, type InboxKind, type InboxState } from "../../model/inbox.ts";
import { withContext } from "../command-kit.ts";
import type { CommandContext } from "../context.ts";
import { EXIT } from "../exit-codes.ts";
import { emitJson } from "../output.ts";

export interface InboxCommandOptions {
  json?: boolean;
  state?: InboxState;
  kind?: InboxKind;
  search?: string;
  limit: number;
}

function stateOption(value: string): InboxState {
  if (!isInboxState(value)) throw new InvalidArgumentError("expected new, read, replied, archived or spam.");
  return value;
}
function kindOption(value: string): InboxKind {
  if (!isInboxKind(value)) throw new InvalidArgumentError("expected communityApplication or contactMessage.");
  return value;
}
function limitOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new InvalidArgumentError("expected 1 to 10000.");
  return n;
}

/** The filter flags both `studio inbox` and `studio inbox export` take. */
function filterFlags(command: Command): Command {
  return command
    .option("--state <state>", "only this state: new, read, replied, archived or spam", stateOption)
    .option("--kind <kind>", "only communityApplication or contactMessage", kindOption)
    .option("--search <text>", "only items whose name, e-mail or text contains this");
}

/** Declares `studio inbox` and `studio inbox export` on `program`. */
export function registerInbox(program: Command): void {
  const inbox = filterFlags(
    program
      .command("inbox")
      .description(
        "List the inbox (community applications and contact messages), newest first. Uses the API key, or a studio member's session in APPWRITE_SESSION.",
      ),
  )
    .option("--limit <n>", "at most this many (1–10000)", limitOption, 50)
    .option("--json", 'print NDJSON: {"type":"submission",…} per item, then {"type":"result",…}')
    .action(async (options: InboxCommandOptions) => withContext(options.json, (c) => runInbox(c, options)));
  // The filter flags are `inbox`'s: commander reads them before or after `export` (optsWithGlobals).
  inbox
    .command("export")
    .description("Write the inbox (filtered by --state, --kind, --search) as CSV, UTF-8 with BOM, to stdout.")
    .requiredOption("--csv", "CSV (the only format)")
    .action(async (_options: unknown, command: Command) =>
      withContext(true, (c) => runInboxExport(c, command.optsWithGlobals<Omit<InboxCommandOptions, "limit">>())),
    );
}

/**
 * `studio inbox`: the filtered inbox, newest first, at most `--limit` items; a table, or NDJSON with `--json`.
 * @returns 0.
 */
export async function runInbox(context: CommandContext, options: InboxCommandOptions): Promise<number> {
  const [{ inboxReader }, { allInboxItems }] = await Promise.all([
    import("../../lib/inbox/access.ts"),
    import("../../lib/inbox/store.ts"),
  ]);
  const reader = await inboxReader(context.services, process.env.APPWRITE_SESSION);
  const filter = { state: options.state, kind: options.kind, q: options.search };
  const items = await allInboxItems(reader.tablesDB, filter, options.limit);
  if (options.json) {
    for (const item of items) emitJson("submission", item);
    emitJson("result", { count: items.length, unread: items.filter((i) => i.state === "new").length });
    return EXIT.ok;
  }
  for (const item of items) {
    const firstLine = item.text.split(/\r?\n/).find((line) => line.trim()) ?? "";
    console.log(
      `${item.createdAt.slice(0, 16).replace("T", " ")}  ${item.state.padEnd(8)} ${item.kind === "contactMessage" ? "contact  " : "community"}  ${item.name} <${item.email}>  ${firstLine.slice(0, 60)}`,
    );
  }
  console.log(`${items.length} submission(s).`);
  return EXIT.ok;
}

/** `studio inbox export --csv`: the filtered inbox as CSV on stdout (`inboxCsv`). @returns 0. */
export async function runInboxExport(
  context: CommandContext,
  options: Omit<InboxCommandOptions, "limit">,
): Promise<number> {
  const [{ inboxReader }, { allInboxItems }, { inboxCsv }] = await Promise.all([
    import("../../lib/inbox/access.ts"),
    import("../../lib/inbox/store.ts"),
    import("../../lib/inbox/csv.ts"),
  ]);
  const reader = await inboxReader(context.services, process.env.APPWRITE_SESSION);
  const items = await allInboxItems(reader.tablesDB, { state: options.state, kind: options.kind, q: options.search });
  process.stdout.write(inboxCsv(items));
  console.error(`Exported ${items.length} submission(s).`);
  return EXIT.ok;
}
