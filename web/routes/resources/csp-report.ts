import {
  describeViolation,
  RateLimitedLog,
  readCappedBody,
  ReportRejectedError,
  summarizeReports,
} from "../../data/csp-report.server.ts";
import type { Route } from "./+types/csp-report";

// Per process: a page with a broken policy cannot flood the log (SECURITY C22; 10 lines a minute).
const reportLog = new RateLimitedLog((line) => console.warn(`[csp] ${line}`));

const text = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });

/** Reports are posted, never fetched. */
export function loader() {
  return text(405, "Method Not Allowed: browsers POST CSP reports here.", { Allow: "POST" });
}

/**
 * `POST /csp-report` (SECURITY C22; ASVS v5 3.4.7): the browser's CSP violation reports, from `report-uri`
 * (`application/csp-report`) or `report-to` (`application/reports+json`). At most 16 KB (413), JSON of one
 * of those shapes (400, 415 otherwise); each violation is logged as one line, within the log's rate limit.
 * Answers 204 with no body.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return text(405, "Method Not Allowed.", { Allow: "POST" });
  try {
    const violations = summarizeReports(request.headers.get("content-type"), await readCappedBody(request));
    for (const violation of violations) reportLog.log(describeViolation(violation));
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof ReportRejectedError) return text(error.status, error.message);
    throw error;
  }
}
