/**
 * SECURITY C10: the installed react-router packages carry the fixes of GHSA-2w69-qvjg-hvjx, CVE-2025-68470,
 * GHSA-49rj-9fvp-4h2h and GHSA-f22v-gfqf-p8f3 (≥ 7.12.0), and CI's audit step (`scripts/audit.ts`) fails only
 * on real high or critical advisories, never because the registry is unreachable.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { auditVerdict, describeVerdict, type Lockfile } from "../../scripts/audit.ts";
import { ROOT } from "../helpers/fixtures.ts";

/** `[major, minor, patch]` of a plain `x.y.z` version (a prerelease suffix is ignored). */
function parseVersion(version: string): [number, number, number] {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) throw new Error(`not a version: ${version}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}
const atLeast = (version: string, minimum: string) => {
  const [a, b] = [parseVersion(version), parseVersion(minimum)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return true;
};

describe("react-router (C10)", () => {
  it.each(["react-router", "@react-router/node", "@react-router/express", "@react-router/dev"])(
    "installs %s 7.12.0 or later",
    async (name) => {
      const manifest = JSON.parse(await readFile(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
        version: string;
      };
      expect(atLeast("7.11.9", "7.12.0")).toBe(false); // the comparison itself
      expect(atLeast(manifest.version, "7.12.0"), `${name}@${manifest.version}`).toBe(true);
    },
  );
});

const LOCK: Lockfile = {
  packages: {
    "": {},
    "node_modules/react-router": {},
    "node_modules/@react-router/dev": { dev: true },
    "node_modules/vite": { dev: true },
    "node_modules/qs": {},
  },
};
const advisory = (title: string, severity: string) => ({
  title,
  severity,
  url: "https://github.com/advisories/GHSA-xxxx-xxxx-xxxx",
});
const report = (vulnerabilities: Record<string, unknown>) => JSON.stringify({ auditReportVersion: 2, vulnerabilities });

describe("CI's npm audit step (C10)", () => {
  it("treats a refused or unreachable audit service as unavailable, not as a finding", () => {
    const refused = JSON.stringify({ message: "405 Method Not Allowed - POST https://registry.example/-/npm/v1/x" });
    const offline = JSON.stringify({ error: { code: "EAI_AGAIN", summary: "request failed", detail: "" } });
    expect(auditVerdict(refused, LOCK)).toEqual({ kind: "unavailable", reason: expect.stringContaining("405") });
    expect(auditVerdict(offline, LOCK)).toEqual({ kind: "unavailable", reason: "EAI_AGAIN request failed" });
    expect(auditVerdict("", LOCK)).toEqual({ kind: "unavailable", reason: "no output" });
    expect(describeVerdict(auditVerdict(refused, LOCK))[0]).toMatch(/^npm audit: not run, .*405.*; not a finding\.$/);
  });

  it("blocks on a high advisory in production code and in any react-router package, dev-only or not", () => {
    const verdict = auditVerdict(
      report({
        "react-router": {
          severity: "high",
          nodes: ["node_modules/react-router"],
          via: [advisory("Open redirect", "high")],
        },
        "@react-router/dev": { severity: "critical", nodes: ["node_modules/@react-router/dev"], via: ["vite"] },
        vite: { severity: "high", nodes: ["node_modules/vite"], via: [advisory("Dev server file read", "high")] },
        qs: { severity: "moderate", nodes: ["node_modules/qs"], via: [advisory("Prototype pollution", "moderate")] },
      }),
      LOCK,
    );
    expect(verdict.kind).toBe("report");
    if (verdict.kind !== "report") return;
    expect(verdict.blocking.map((f) => [f.name, f.devOnly])).toEqual([
      ["react-router", false],
      ["@react-router/dev", true],
    ]);
    expect(verdict.other.map((f) => [f.name, f.severity, f.devOnly])).toEqual([
      ["vite", "high", true],
      ["qs", "moderate", false],
    ]);
    expect(describeVerdict(verdict)).toContain(
      "  HIGH react-router (production): Open redirect https://github.com/advisories/GHSA-xxxx-xxxx-xxxx",
    );
  });

  it("passes a clean report, and refuses a severity it does not know", () => {
    expect(auditVerdict(report({}), LOCK)).toEqual({ kind: "report", blocking: [], other: [] });
    expect(() => auditVerdict(report({ qs: { severity: "severe", nodes: [] } }), LOCK)).toThrow(/unknown severity/);
  });
});
