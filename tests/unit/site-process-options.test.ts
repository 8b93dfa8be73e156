import { describe, expect, it } from "vitest";
import { withoutLoaders } from "../../server/site-processes.ts";

describe("the options a bundled site process runs with (withoutLoaders)", () => {
  it("drops the TypeScript loader `npm start` runs under, in each way Node.js takes it", () => {
    expect(withoutLoaders(["--import", "tsx"])).toEqual([]);
    expect(
      withoutLoaders([
        "--require",
        "/p/node_modules/tsx/dist/preflight.cjs",
        "--import",
        "file:///p/node_modules/tsx/dist/loader.mjs",
      ]),
    ).toEqual([]);
    expect(
      withoutLoaders(["--import=tsx", "-r", "x.cjs", "--loader=ts-node/esm", "--experimental-loader", "y"]),
    ).toEqual([]);
  });

  it("keeps every other option (a V8 setting, the inspector), in order", () => {
    expect(withoutLoaders(["--max-semi-space-size=32", "--import", "tsx", "--trace-gc-nvp", "--inspect=0"])).toEqual([
      "--max-semi-space-size=32",
      "--trace-gc-nvp",
      "--inspect=0",
    ]);
  });
});
