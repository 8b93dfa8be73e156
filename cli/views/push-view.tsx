import { Box, Static, Text, render } from "ink";
import { useEffect, useState } from "react";
import type { PlanAction, PushEvent, PushItemResult, PushResult } from "../../lib/publish/push.ts";
import { DEFAULT_CONTENT_LOCALE } from "../../model/locales.ts";
import { conflictDetail, stateChange } from "../output.ts";

export interface PushViewState {
  validated?: Extract<PushEvent, { type: "validated" }>;
  /** The export written before deleting (`--prune`). */
  exported?: Extract<PushEvent, { type: "exported" }>;
  /** Items in the plan: the progress bar's total. */
  total: number;
  /** Items done so far. */
  done: number;
  /**
   * The lines not yet printed (items written, failed, in conflict or skipped; unchanged items stay quiet):
   * printed once each above the live part, then dropped. The view holds these, not every item of the push
   * (issue #33 item 6: 200,000 items).
   */
  lines: PushItemResult[];
  /** Which batch `lines` is: each batch is printed by a `Static` of its own (it prints its items once). */
  batch: number;
  result?: PushResult;
}

/** Whether the view prints a line for `r` (not for an item left unchanged). */
export const printsLine = (r: PushItemResult) => r.action !== "unchanged" || r.status === "failed";

const MARK: Record<PlanAction, string> = {
  create: "+",
  update: "~",
  unchanged: "=",
  delete: "-",
  conflict: "!",
  skip: "·",
};
const COLOR: Partial<Record<PlanAction, string>> = {
  create: "green",
  update: "yellow",
  delete: "magenta",
  conflict: "red",
};
const BAR_WIDTH = 24;
/** At most one frame this often (ms) while items are written. */
const FRAME_MS = 100;

function ProgressBar({ done, total }: { done: number; total: number }) {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  return (
    <Text>
      <Text color="green">{"█".repeat(filled)}</Text>
      <Text dimColor>{"░".repeat(BAR_WIDTH - filled)}</Text> {done}/{total}
    </Text>
  );
}

/**
 * Live view of `studio push`: validation counts, a progress bar with counts, one line per item that is written,
 * in conflict or skipped (unchanged items stay quiet), and the summary.
 */
export function PushView({ state, contentDir = "content" }: { state: PushViewState; contentDir?: string }) {
  const { validated, result } = state;
  return (
    <Box flexDirection="column">
      {/* Written once each, above the live part (issue #33 item 6: 200,000 lines are not drawn again each frame). */}
      <Static key={state.batch} items={state.lines.filter(printsLine)}>
        {(r) => (
          // A bilingual item has one row per version: the key holds the locale (issue #34).
          <Text
            key={`${r.kind}:${r.slug}:${r.locale ?? DEFAULT_CONTENT_LOCALE}`}
            color={r.status === "failed" ? "red" : COLOR[r.action]}
          >
            {r.status === "failed" ? "✗" : MARK[r.action]} {r.kind} {r.slug}{" "}
            <Text dimColor>{r.locale ?? DEFAULT_CONTENT_LOCALE}</Text>
            {r.action === "update" && r.status === "done" ? <Text dimColor> ({r.changes.join(", ")})</Text> : null}
            {r.status === "done" && stateChange(r) ? <Text color="magenta">{stateChange(r)}</Text> : null}
            {r.error ? <Text> {r.error}</Text> : null}
            {r.reason ? <Text dimColor> {r.reason}</Text> : null}
            {r.status === "done" && conflictDetail(r, contentDir) ? <Text>{conflictDetail(r, contentDir)}</Text> : null}
          </Text>
        )}
      </Static>
      {validated && (
        <Text>
          Content: <Text color="green">{validated.valid} publishable</Text>
          {validated.invalid > 0 && <Text color="red">, {validated.invalid} invalid</Text>}
          {validated.drafts > 0 && <Text dimColor>, {validated.drafts} draft(s)</Text>}
        </Text>
      )}
      {state.exported && (
        <Box flexDirection="column">
          <Text color="magenta">
            Exported {state.exported.documents} item(s) and {state.exported.files} image(s) before deleting:
          </Text>
          <Box paddingLeft={2} flexDirection="column">
            <Text>{state.exported.path}</Text>
            <Text dimColor>undo with: studio restore {state.exported.path}</Text>
          </Box>
        </Box>
      )}
      {!result && state.total > 0 && <ProgressBar done={state.done} total={state.total} />}
      {result && (
        <Text bold>
          {result.dryRun ? (
            <>
              Dry run, nothing written: <Text color="green">would create {result.created}</Text>,{" "}
              <Text color="yellow">would update {result.updated}</Text>, would delete {result.deleted};{" "}
              {result.unchanged} unchanged, {result.skipped} skipped,{" "}
            </>
          ) : (
            <>
              <Text color="green">{result.created} created</Text>, <Text color="yellow">{result.updated} updated</Text>,{" "}
              {result.unchanged} unchanged, {result.deleted} deleted, {result.skipped} skipped,{" "}
            </>
          )}
          <Text color={result.conflicts ? "red" : undefined}>{result.conflicts} conflict(s)</Text>,{" "}
          <Text color={result.failed ? "red" : undefined}>{result.failed} failed</Text>
        </Text>
      )}
    </Box>
  );
}

function Live(props: {
  contentDir: string;
  run: (onEvent: (e: PushEvent) => void) => Promise<PushResult>;
  onDone: (r: PushResult | Error) => void;
}) {
  const [state, setState] = useState<PushViewState>({ total: 0, done: 0, lines: [], batch: 0 });
  useEffect(() => {
    // Counted here and drawn at most every `FRAME_MS`, with only the lines since the last frame (issue #33
    // item 6: copying or filtering a list of 200,000 results for each frame was quadratic, one frame an item
    // kept the push waiting on the terminal, and the list itself held every item to the end).
    let done = 0;
    let lines: PushItemResult[] = [];
    let timer: NodeJS.Timeout | undefined;
    // The state update for what came since the last frame (its lines are handed over, not kept here).
    const flush = () => {
      const taken = lines;
      const count = done;
      lines = [];
      return (s: PushViewState): PushViewState => ({
        ...s,
        done: count,
        ...(taken.length ? { lines: taken, batch: s.batch + 1 } : {}),
      });
    };
    const draw = () => {
      timer = undefined;
      setState(flush());
    };
    props
      .run((event) => {
        if (event.type === "item") {
          done = event.done;
          if (printsLine(event.result)) lines.push(event.result);
          timer ??= setTimeout(draw, FRAME_MS);
          return;
        }
        setState((s) => {
          if (event.type === "validated") return { ...s, validated: event };
          if (event.type === "planned") return { ...s, total: event.plan.length };
          return event.type === "exported" ? { ...s, exported: event } : s;
        });
      })
      .then(
        (result) => {
          clearTimeout(timer);
          const update = flush();
          setState((s) => ({ ...update(s), result }));
          props.onDone(result);
        },
        (error: unknown) => {
          clearTimeout(timer);
          setState(flush());
          props.onDone(error instanceof Error ? error : new Error(String(error)));
        },
      );
    // Runs once: the push starts when the view mounts.
  }, []);
  return <PushView state={state} contentDir={props.contentDir} />;
}

/** Renders the push view while `run` executes; resolves with its result once the final frame is drawn. */
export async function renderPush(
  run: (onEvent: (e: PushEvent) => void) => Promise<PushResult>,
  contentDir = "content",
): Promise<PushResult> {
  let outcome: PushResult | Error | undefined;
  const instance = render(
    <Live
      contentDir={contentDir}
      run={run}
      onDone={(r) => {
        outcome = r;
        setTimeout(() => instance.unmount(), 0);
      }}
    />,
  );
  await instance.waitUntilExit();
  if (outcome instanceof Error) throw outcome;
  return outcome!;
}
