import { describe, expect, it } from "vitest";
import { withoutTypeScriptLoader } from "../../server/site-processes.ts";

describe("the options a bundled site process runs with (withoutTypeScriptLoader)", () => {
  it("drops the TypeScript loader `npm start` runs under, in each way Node.js takes it", () => {
    expect(withoutTypeScriptLoader(["--import", "tsx"])).toEqual([]);
    expect(
      withoutTypeScriptLoader([
        "--require",
        "/p/node_modules/tsx/dist/preflight.cjs",
        "--import",
        "file:///p/node_modules/tsx/dist/loader.mjs",
      ]),
    ).toEqual([]);
    expect(withoutTypeScriptLoader(["--import=tsx", "--loader", "tsx/esm", "-r", "tsx/cjs"])).toEqual([]);
  });

  it("keeps every other option (a V8 setting, the inspector, an operator's own preload), in order", () => {
    expect(
      withoutTypeScriptLoader([
        "--max-semi-space-size=32",
        "--import",
        "tsx",
        "--trace-gc-nvp",
        "--require",
        "dd-trace/init",
        "--import=@opentelemetry/auto-instrumentations-node/register",
        "--inspect=0",
      ]),
    ).toEqual([
      "--max-semi-space-size=32",
      "--trace-gc-nvp",
      "--require",
      "dd-trace/init",
      "--import=@opentelemetry/auto-instrumentations-node/register",
      "--inspect=0",
    ]);
  });
});
