import { Box, Text, render } from "ink";
import { useEffect, useState } from "react";
import type { PlanEntry, PushEvent, PushItemResult, PushResult } from "../../lib/publish/push.ts";

interface State {
  validated?: Extract<PushEvent, { type: "validated" }>;
  plan: PlanEntry[];
  results: PushItemResult[];
  result?: PushResult;
  error?: string;
}

const MARK = { create: "+", update: "~", unchanged: "=" } as const;

/** Live view of `studio push`: validation counts, a progress count, one line per written item, the summary. */
export function PushView({ state }: { state: State }) {
  const done = state.results.length;
  const total = state.plan.length;
  const written = state.results.filter((r) => r.action !== "unchanged" || r.status === "failed");
  return (
    <Box flexDirection="column">
      {state.validated && (
        <Text>
          Content: <Text color="green">{state.validated.valid} publishable</Text>
          {state.validated.invalid > 0 && <Text color="red">, {state.validated.invalid} invalid</Text>}
          {state.validated.drafts > 0 && <Text dimColor>, {state.validated.drafts} draft(s)</Text>}
        </Text>
      )}
      {written.map((r) => (
        <Text
          key={`${r.kind}:${r.slug}`}
          color={r.status === "failed" ? "red" : r.action === "create" ? "green" : "yellow"}
        >
          {r.status === "failed" ? "✗" : MARK[r.action]} {r.kind} {r.slug}
          {r.action === "update" && r.status === "done" ? <Text dimColor> ({r.changes.join(", ")})</Text> : null}
          {r.error ? <Text> {r.error}</Text> : null}
        </Text>
      ))}
      {!state.result && total > 0 && (
        <Text dimColor>
          {state.results.length > 0 ? "Pushing" : "Planning"} {done}/{total}
        </Text>
      )}
      {state.result && (
        <Text bold>
          {state.result.dryRun ? "Dry run, nothing written: " : ""}
          <Text color="green">{state.result.created} created</Text>,{" "}
          <Text color="yellow">{state.result.updated} updated</Text>, {state.result.unchanged} unchanged,{" "}
          <Text color={state.result.failed ? "red" : undefined}>{state.result.failed} failed</Text>
        </Text>
      )}
    </Box>
  );
}

function Live({
  run,
  onDone,
}: {
  run: (onEvent: (e: PushEvent) => void) => Promise<PushResult>;
  onDone: (r: PushResult | Error) => void;
}) {
  const [state, setState] = useState<State>({ plan: [], results: [] });
  useEffect(() => {
    run((event) =>
      setState((s) => {
        if (event.type === "validated") return { ...s, validated: event };
        if (event.type === "planned") return { ...s, plan: event.plan };
        return { ...s, results: [...s.results, event.result] };
      }),
    ).then(
      (result) => {
        setState((s) => ({ ...s, result }));
        onDone(result);
      },
      (error: unknown) => onDone(error instanceof Error ? error : new Error(String(error))),
    );
  }, []);
  return <PushView state={state} />;
}

/** Renders the push view while `run` executes; resolves with its result once the final frame is drawn. */
export async function renderPush(run: (onEvent: (e: PushEvent) => void) => Promise<PushResult>): Promise<PushResult> {
  let outcome: PushResult | Error | undefined;
  const instance = render(
    <Live
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
