// The fake Gemini lives in scripts/dev/ so that scripts (fault figures) can use it too.
export * from "../../scripts/dev/fake-gemini.ts";
