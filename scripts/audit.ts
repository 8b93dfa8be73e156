/**
 * CI's dependency audit (SECURITY C10): runs `npm audit --json` once and fails only on real advisories of
 * severity high or critical in a production dependency, or in any react-router package (the checklist asks
 * for 0 there, and `@react-router/dev` builds the server the site runs). Dev-only and lower findings are
 * printed, not fatal. A registry that cannot be reached, refuses the audit endpoint or times out is reported
 * on one line and is not a finding, so a network blip never fails CI.
 *
 * Usage: `tsx scripts/audit.ts` (exit 0: nothing blocking or audit unavailable; 1: blocking advisories).
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** npm's severities, lowest first. */
export const SEVERITIES = ["info", "low", "moderate", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One vulnerable package from `npm audit --json` (report version 2), with whether only dev tooling uses it. */
export interface Finding {
  name: string;
  severity: Severity;
  /** True when every installed copy is a dev-only package (`"dev": true` in package-lock.json). */
  devOnly: boolean;
  /** Advisory titles and URLs, or the names of the vulnerable packages this one depends on. */
  via: string[];
}

export type AuditVerdict =
  { kind: "unavailable"; reason: string } | { kind: "report"; blocking: Finding[]; other: Finding[] };

/** The part of package-lock.json (lockfile v2/v3) read here: which installed paths are dev-only. */
export interface Lockfile {
  packages?: Record<string, { dev?: boolean }>;
}

const REACT_ROUTER = /^(react-router|react-router-dom|@react-router\/.+)$/;

/** Whether a finding must fail CI: high or critical, in production code or in react-router. */
export function isBlocking(finding: Finding): boolean {
  const serious = finding.severity === "high" || finding.severity === "critical";
  return serious && (!finding.devOnly || REACT_ROUTER.test(finding.name));
}

/**
 * Reads `npm audit --json` output. Anything that is not an audit report (npm's JSON error object for a
 * refused or unreachable endpoint, empty or non-JSON output) is `unavailable` with a one-line reason.
 * @param stdout what `npm audit --json` printed.
 * @param lock the project's package-lock.json, to tell dev-only packages apart.
 */
export function auditVerdict(stdout: string, lock: Lockfile): AuditVerdict {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    const first = stdout.trim().split("\n")[0] ?? "";
    return { kind: "unavailable", reason: first ? `npm printed no report: ${first.slice(0, 200)}` : "no output" };
  }
  const report = parsed as {
    vulnerabilities?: unknown;
    message?: unknown;
    error?: { summary?: unknown; code?: unknown };
  };
  if (typeof report !== "object" || report === null || typeof report.vulnerabilities !== "object") {
    const reason = [report?.message, report?.error?.code, report?.error?.summary]
      .filter((part) => typeof part === "string" && part !== "")
      .join(" ");
    return { kind: "unavailable", reason: (reason || "the output is not an audit report").slice(0, 300) };
  }
  const findings: Finding[] = [];
  for (const [name, raw] of Object.entries(report.vulnerabilities as Record<string, unknown>)) {
    const entry = raw as { severity?: string; nodes?: unknown; via?: unknown };
    const severity = SEVERITIES.find((s) => s === entry.severity);
    if (!severity) throw new Error(`npm audit: "${name}" has an unknown severity ${JSON.stringify(entry.severity)}`);
    const nodes = Array.isArray(entry.nodes) ? (entry.nodes as string[]) : [];
    const devOnly = nodes.length > 0 && nodes.every((node) => lock.packages?.[node]?.dev === true);
    const via = (Array.isArray(entry.via) ? entry.via : []).map((v: unknown) =>
      typeof v === "string"
        ? `via ${v}`
        : `${(v as { title?: string }).title ?? "advisory"} ${(v as { url?: string }).url ?? ""}`.trim(),
    );
    findings.push({ name, severity, devOnly, via });
  }
  return { kind: "report", blocking: findings.filter(isBlocking), other: findings.filter((f) => !isBlocking(f)) };
}

/** The lines CI prints for a verdict; the first says what happened, one line per finding follows. */
export function describeVerdict(verdict: AuditVerdict): string[] {
  if (verdict.kind === "unavailable") {
    return [`npm audit: not run, the registry's audit service did not answer (${verdict.reason}); not a finding.`];
  }
  const line = (f: Finding) =>
    `  ${f.severity.toUpperCase()} ${f.name} (${f.devOnly ? "dev only" : "production"}): ${f.via.join("; ")}`;
  return [
    `npm audit: ${verdict.blocking.length} blocking (high or critical in production or react-router), ` +
      `${verdict.other.length} other.`,
    ...verdict.blocking.map(line),
    ...verdict.other.map(line),
  ];
}

/** Runs `npm audit --json` in `root`, giving up after `timeoutMs` (then the output is empty). */
async function runNpmAudit(root: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["audit", "--json", "--fetch-retries=1"], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill();
      resolve(JSON.stringify({ message: `timed out after ${timeoutMs / 1000} s` }));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(JSON.stringify({ message: error.message }));
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const lock = JSON.parse(await readFile(path.join(root, "package-lock.json"), "utf8")) as Lockfile;
  const verdict = auditVerdict(await runNpmAudit(root, 120_000), lock);
  for (const line of describeVerdict(verdict)) console.log(line);
  process.exitCode = verdict.kind === "report" && verdict.blocking.length > 0 ? 1 : 0;
}
