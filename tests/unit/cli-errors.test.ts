import { AppwriteException } from "node-appwrite";
import { describe, expect, it } from "vitest";
import { reportError } from "../../cli/report-error.ts";
import { ContentFolderError, SchemaMissingError } from "../../lib/publish/push.ts";
import { AbortError, BugError, EXIT } from "../../lib/errors.ts";
import { AiNotConfiguredError } from "../../lib/ai/gemini.ts";
import { ConfigError } from "../../lib/config.ts";

async function report(error: unknown): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await reportError(error, (line) =>
    lines.push(line instanceof Error ? String(line.stack) : String(line)),
  );
  return { code, text: lines.join("\n") };
}

describe("studio's errors say who must act", () => {
  it("prints an AbortError's message and next steps, and exits with its code", async () => {
    const { code, text } = await report(
      new AbortError("The thing is broken.", { exitCode: EXIT.backend, nextSteps: "Fix the thing." }),
    );
    expect(code).toBe(3);
    expect(text).toBe("studio: The thing is broken.\n  Fix the thing.");
  });

  it("gives the README's exit code to each error class of lib/, with no list in the CLI", async () => {
    expect((await report(new ConfigError("PORT must be a number"))).code).toBe(EXIT.backend);
    expect((await report(new SchemaMissingError("no database"))).code).toBe(EXIT.backend);
    expect((await report(new ContentFolderError("no folder"))).code).toBe(EXIT.usage);
    const ai = await report(new AiNotConfiguredError());
    expect(ai.code).toBe(EXIT.backend);
    expect(ai.text).toMatch(/set GEMINI_API_KEY\n {2}Set GEMINI_API_KEY in the environment or \.env/);
  });

  it("maps the Appwrite SDK's errors and an unreachable server once, to exit 3 with what to check", async () => {
    const refused = await report(new AppwriteException("Invalid API key", 401, "user_unauthorized"));
    expect(refused.code).toBe(EXIT.backend);
    expect(refused.text).toMatch(/Appwrite refused or did not answer: Invalid API key \(user_unauthorized\)/);
    expect(refused.text).toMatch(/Check APPWRITE_ENDPOINT/);
    expect((await report(new TypeError("fetch failed"))).code).toBe(EXIT.backend);
  });

  it("reports a BugError or any other error as a bug: exit 70, how to report it, and the stack", async () => {
    for (const error of [new BugError("invariant broken"), new Error("boom")]) {
      const { code, text } = await report(error);
      expect(code).toBe(70);
      expect(text).toMatch(/This is a bug in studio; please report it/);
      expect(text).toMatch(/ {4}at /);
    }
  });
});
