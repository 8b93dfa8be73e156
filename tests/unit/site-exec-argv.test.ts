/**
 * The site processes' V8 settings (issue #33 item 3, `server/site-processes.ts`): a larger young generation than
 * Node's default, unless the operator gave one.
 */
import { describe, expect, it } from "vitest";
import { SITE_SEMI_SPACE_MB, siteExecArgv } from "../../server/site-processes.ts";

describe("siteExecArgv", () => {
  it("keeps the launcher's options (a TypeScript loader) and adds the larger young generation", () => {
    expect(siteExecArgv(["--import", "tsx"])).toEqual([
      "--import",
      "tsx",
      `--max-semi-space-size=${SITE_SEMI_SPACE_MB}`,
    ]);
  });

  it("leaves a size the operator gave as it is", () => {
    for (const given of ["--max-semi-space-size=8", "--max_semi_space_size=64"]) {
      expect(siteExecArgv([given])).toEqual([given]);
    }
  });
});
