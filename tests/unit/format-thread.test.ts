/** SECURITY C70: Prettier on the formatter thread (`lib/html/format-thread.ts`) formats exactly as `formatHtml`. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseFrontMatter } from "../../lib/content/front-matter.ts";
import { formatHtml } from "../../lib/html/format.ts";
import {
  FORMATS_PER_USER,
  FormatterBusyError,
  formatHtmlOffThread,
  FormatTimeoutError,
  stopFormatterThread,
} from "../../lib/html/format-thread.ts";
import { STALL_BODIES } from "../../scripts/dev/stall-bodies.ts";
import { ROOT } from "../helpers/fixtures.ts";

afterAll(() => stopFormatterThread());

const HTML_FILES = [
  "posts/ideation-to-exit-the-eight-phases.html",
  "posts/the-business-service-network-explained.ar.html",
  "ventures/qalam-bridge.html",
  "ventures/tender-forge.ar.html",
];

describe("formatHtmlOffThread", () => {
  it("formats content/'s HTML bodies and a nested list exactly as formatHtml does", async () => {
    const bodies = ["<ul><li><p>a</p></li></ul>", "<blockquote>Plain <em>quote</em></blockquote><p>a</p>"];
    for (const file of HTML_FILES) {
      bodies.push(parseFrontMatter(await readFile(path.join(ROOT, "content", file), "utf8")).content);
    }
    for (const body of bodies) expect(await formatHtmlOffThread(body, "same-output")).toBe(await formatHtml(body));
  });

  it("fails a body past its budget as too complex, and formats the next one", async () => {
    await expect(formatHtmlOffThread(STALL_BODIES.worstAccepted, "budget", 1)).rejects.toBeInstanceOf(
      FormatTimeoutError,
    );
    expect(await formatHtmlOffThread("<p>next</p>", "budget")).toBe("<p>next</p>");
  });

  it(`gives one user at most ${FORMATS_PER_USER} bodies at once, and others their own`, async () => {
    const mine = Array.from({ length: 4 }, () => formatHtmlOffThread("<p>mine</p>", "one-user"));
    const theirs = formatHtmlOffThread("<p>theirs</p>", "other-user");
    const settled = await Promise.allSettled(mine);
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(FORMATS_PER_USER);
    for (const s of settled.filter((s) => s.status === "rejected")) expect(s.reason).toBeInstanceOf(FormatterBusyError);
    expect(await theirs).toBe("<p>theirs</p>");
  });
});
