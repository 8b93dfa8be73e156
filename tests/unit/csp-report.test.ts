/**
 * SECURITY C22: the report endpoint's parts without HTTP — reading both report formats, keeping the log clean
 * (no control characters, no query strings) and bounded (10 lines a minute, then a count of what was left out).
 */
import { describe, expect, it } from "vitest";
import {
  RateLimitedLog,
  readCappedBody,
  ReportRejectedError,
  summarizeReports,
} from "../../web/data/csp-report.server.ts";

describe("summarizeReports", () => {
  it("reads report-uri and Reporting API bodies, skipping other report types", () => {
    const legacy = {
      "csp-report": {
        "violated-directive": "img-src",
        "blocked-uri": "data",
        "document-uri": "https://s.example/en?a=b",
      },
    };
    expect(summarizeReports("application/csp-report; charset=utf-8", JSON.stringify(legacy))).toEqual([
      { directive: "img-src", blocked: "data", page: "https://s.example/en", disposition: "enforce" },
    ]);
    const batch = [
      { type: "intervention", body: {} },
      {
        type: "csp-violation",
        url: "https://s.example/ar",
        body: { effectiveDirective: "script-src-elem", blockedURL: "eval", disposition: "report" },
      },
    ];
    expect(summarizeReports("application/reports+json", JSON.stringify(batch))).toEqual([
      { directive: "script-src-elem", blocked: "eval", page: "https://s.example/ar", disposition: "report" },
    ]);
  });

  it("removes control characters and bounds each field", () => {
    const [summary] = summarizeReports(
      "application/csp-report",
      JSON.stringify({ "csp-report": { "effective-directive": "img-src\r\nX: y", "blocked-uri": "x".repeat(500) } }),
    );
    expect(summary!.directive).toBe("img-src  X: y");
    expect(summary!.blocked).toHaveLength(200);
    expect(summary!.page).toBe("-");
  });

  it.each([
    ["text/plain", "{}", 415],
    [null, "{}", 415],
    ["application/csp-report", "nope", 400],
    ["application/csp-report", "[1, 2]", 400],
    ["application/reports+json", '{"csp-report": 1}', 400],
  ])("refuses %s %s with %i", (type, body, status) => {
    const error = (() => {
      try {
        summarizeReports(type, body);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ReportRejectedError);
    expect((error as ReportRejectedError).status).toBe(status);
  });
});

describe("readCappedBody", () => {
  it("reads a body up to the cap and refuses one past it, even without Content-Length", async () => {
    const request = (body: string) => new Request("http://s.example/csp-report", { method: "POST", body });
    expect(await readCappedBody(request("abcd"), 4)).toBe("abcd");
    await expect(readCappedBody(request("abcde"), 4)).rejects.toMatchObject({ status: 413 });
  });
});

describe("RateLimitedLog", () => {
  it("writes at most the limit per window, then says how many it left out", () => {
    const lines: string[] = [];
    const log = new RateLimitedLog((line) => lines.push(line), { lines: 2, windowMs: 60_000 });
    expect([log.log("a", 0), log.log("b", 1), log.log("c", 2), log.log("d", 59_999)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(log.log("e", 60_000)).toBe(true);
    expect(lines).toEqual([
      "a",
      "b",
      "CSP report log: 2 more line(s) left out in the last window (limit reached)",
      "e",
    ]);
  });
});
