import { Box, Static, Text, render } from "ink";
import { useEffect, useState } from "react";
import type { PlanAction, PlanEntry, PushEvent, PushItemResult, PushResult } from "../../lib/publish/push.ts";
import { DEFAULT_CONTENT_LOCALE } from "../../model/locales.ts";
import { conflictDetail, stateChange } from "../output.ts";

export interface PushViewState {
  validated?: Extract<PushEvent, { type: "validated" }>;
  /** The export written before deleting (`--prune`). */
  exported?: Extract<PushEvent, { type: "exported" }>;
  plan: PlanEntry[];
  results: PushItemResult[];
  result?: PushResult;
}

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
  const shown = state.results.filter((r) => r.action !== "unchanged" || r.status === "failed");
  const { validated, result } = state;
  return (
    <Box flexDirection="column">
      {/* Written once each, above the live part (issue #33 item 6: 200,000 lines are not drawn again each frame). */}
      <Static items={shown}>
        {(r) => (
          // A bilingual item has one row per version: the key holds the locale (issue #34).
          <Text key={`${r.kind}:${r.slug}:${r.locale ?? DEFAULT_CONTENT_LOCALE}`} color={r.status === "failed" ? "red" : COLOR[r.action]}>
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
      {!result && state.plan.length > 0 && <ProgressBar done={state.results.length} total={state.plan.length} />}
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
  const [state, setState] = useState<PushViewState>({ plan: [], results: [] });
  useEffect(() => {
    // Results are appended in place and drawn at most every `FRAME_MS` (issue #33 item 6: copying the list for
    // each of 200,000 items was quadratic, and one frame an item kept the push waiting on the terminal).
    const results: PushItemResult[] = [];
    let timer: NodeJS.Timeout | undefined;
    const draw = () => {
      timer = undefined;
      setState((s) => ({ ...s, results }));
    };
    props
      .run((event) => {
        if (event.type === "item") {
          results.push(event.result);
          timer ??= setTimeout(draw, FRAME_MS);
          return;
        }
        setState((s) => {
          if (event.type === "validated") return { ...s, validated: event };
          if (event.type === "planned") return { ...s, plan: event.plan };
          return event.type === "exported" ? { ...s, exported: event } : s;
        });
      })
      .then(
        (result) => {
          clearTimeout(timer);
          setState((s) => ({ ...s, results, result }));
          props.onDone(result);
        },
        (error: unknown) => {
          clearTimeout(timer);
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
