/** The visitor forms' rules come from the content model (issue #14 item 1): inputs, renames, errors. */
import { describe, expect, it } from "vitest";
import { formValues, submissionKindOf, validateForm } from "../../web/forms.ts";

describe("visitor forms from the content model", () => {
  it("reads each form's inputs in order and ignores other entries", () => {
    const data = new FormData();
    for (const [k, v] of Object.entries({ name: "Lina", email: "a@b.co", interest: "Idea", extra: "x" })) {
      data.set(k, v);
    }
    expect(formValues("community", data)).toEqual({ name: "Lina", email: "a@b.co", interest: "Idea" });
    expect(Object.keys(formValues("contact", new FormData()))).toEqual(["name", "email", "message"]);
  });

  it("stores the community form's interest as projectIdea, trimmed", () => {
    const result = validateForm("community", { name: " Lina ", email: " a@b.co ", interest: " An idea " });
    expect(result).toEqual({ ok: true, data: { name: "Lina", email: "a@b.co", projectIdea: "An idea" } });
    expect(submissionKindOf("community")).toBe("communityApplication");
    expect(submissionKindOf("contact")).toBe("contactMessage");
  });

  it("keys errors by input name: required, e-mail format, too long", () => {
    const result = validateForm("community", { name: "  ", email: "nope", interest: "x".repeat(5001) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors.name).toEqual({ code: "required" });
    expect(result.fieldErrors.email).toEqual({ code: "email" });
    expect(result.fieldErrors.interest?.code).toBe("tooLong");
    expect(result.fieldErrors.projectIdea).toBeUndefined();
  });
});
