/**
 * Content-Security-Policy violation reports (SECURITY C22; ASVS v5 3.4.7): where browsers send them, how big
 * one may be, how they are read, and a log that cannot be flooded.
 */

/** Same-origin path of the report endpoint (CSP `report-uri`, and the `Reporting-Endpoints` URL). */
export const CSP_REPORT_PATH = "/csp-report";
/** Endpoint name for CSP `report-to` and the `Reporting-Endpoints` header. */
export const CSP_REPORT_GROUP = "csp-endpoint";
/** Largest report body accepted, in bytes (a browser's report is 1–3 KB; a batch of a few stays well under). */
export const MAX_REPORT_BYTES = 16 * 1024;
/** Summary lines logged per window, and the window in ms: per process, at most 10 a minute. */
export const REPORT_LOG_LIMIT = { lines: 10, windowMs: 60_000 } as const;

/** The `Reporting-Endpoints` header value that goes with the CSP's `report-to` (Reporting API, W3C). */
export const REPORTING_ENDPOINTS = `${CSP_REPORT_GROUP}="${CSP_REPORT_PATH}"`;

/** A report the endpoint refuses, with the HTTP status to answer (400, 413 or 415) and a plain message. */
export class ReportRejectedError extends Error {
  override name = "ReportRejectedError";
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** One violation as logged: the directive, what was blocked, on which page, enforced or report-only. */
export interface ViolationSummary {
  directive: string;
  blocked: string;
  page: string;
  disposition: string;
}

const MEDIA_TYPES = ["application/csp-report", "application/reports+json", "application/json"];

/**
 * Reads a request body of at most `max` bytes: refused from its `Content-Length` before reading, or as soon
 * as more arrives than it said.
 * @throws {ReportRejectedError} 413 when the body is larger than `max`.
 */
export async function readCappedBody(request: Request, max = MAX_REPORT_BYTES): Promise<string> {
  const tooLarge = () => new ReportRejectedError(413, `A report may be at most ${max} bytes.`);
  if (Number(request.headers.get("content-length") ?? 0) > max) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A log-safe field: no control characters (no forged log lines), at most 200 characters. */
function clean(value: unknown): string {
  const text = typeof value === "string" || typeof value === "number" ? String(value) : "";
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").slice(0, 200) || "-";
}

/** A URL without its query and fragment (they may carry tokens or personal data); keywords such as `inline` as is. */
function withoutQuery(value: unknown): string {
  if (typeof value !== "string") return "-";
  try {
    const url = new URL(value);
    return clean(url.protocol === "http:" || url.protocol === "https:" ? url.origin + url.pathname : url.protocol);
  } catch {
    return clean(value);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The violations in a report body, as sent by browsers: `application/csp-report` (CSP `report-uri`:
 * `{"csp-report": {...}}`) or `application/reports+json` (Reporting API: an array of `{type, body}`, of which
 * the `csp-violation` ones count; others are skipped).
 * @param contentType the request's `Content-Type` (parameters ignored).
 * @throws {ReportRejectedError} 415 for another media type, 400 for a body that is not such a report.
 */
export function summarizeReports(contentType: string | null, body: string): ViolationSummary[] {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (!MEDIA_TYPES.includes(type)) {
    throw new ReportRejectedError(415, "Send application/csp-report or application/reports+json.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ReportRejectedError(400, "The report is not valid JSON.");
  }
  if (isObject(parsed) && isObject(parsed["csp-report"])) {
    const r = parsed["csp-report"];
    return [
      {
        directive: clean(r["effective-directive"] ?? r["violated-directive"]),
        blocked: withoutQuery(r["blocked-uri"]),
        page: withoutQuery(r["document-uri"]),
        disposition: clean(r.disposition ?? "enforce"),
      },
    ];
  }
  if (Array.isArray(parsed) && parsed.every((item) => isObject(item) && typeof item.type === "string")) {
    return (parsed as Record<string, unknown>[])
      .filter((item) => item.type === "csp-violation" && isObject(item.body))
      .map((item) => {
        const b = item.body as Record<string, unknown>;
        return {
          directive: clean(b.effectiveDirective),
          blocked: withoutQuery(b.blockedURL),
          page: withoutQuery(b.documentURL ?? item.url),
          disposition: clean(b.disposition ?? "enforce"),
        };
      });
  }
  throw new ReportRejectedError(400, "The body is not a CSP report.");
}

/**
 * A log of at most `lines` lines per `windowMs`. Past the limit, lines are counted, not written; the next
 * window's first line is preceded by how many were left out. Not shared between processes.
 */
export class RateLimitedLog {
  private windowStart = -Infinity;
  private written = 0;
  private dropped = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly limit: { lines: number; windowMs: number } = REPORT_LOG_LIMIT,
  ) {}

  /** Writes `line` unless this window's allowance is used up. @returns whether it was written. */
  log(line: string, now = Date.now()): boolean {
    if (now - this.windowStart >= this.limit.windowMs) {
      if (this.dropped > 0) {
        this.write(`CSP report log: ${this.dropped} more line(s) left out in the last window (limit reached)`);
      }
      this.windowStart = now;
      this.written = 0;
      this.dropped = 0;
    }
    if (this.written >= this.limit.lines) {
      this.dropped++;
      return false;
    }
    this.written++;
    this.write(line);
    return true;
  }
}

/** The one-line summary of a violation. */
export function describeViolation(v: ViolationSummary): string {
  return `CSP violation (${v.disposition}): ${v.directive} blocked ${v.blocked} on ${v.page}`;
}
