/**
 * Issue #17 items 1–2: the admin's server messages in its language, naming their field, translated from the
 * schemas' zod issues at the edge (`web/data/admin-errors.server.ts`); `model/` keeps its English.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { formSchema } from "../../model/content.ts";
import { imageRefusalText, issueText, submissionText } from "../../web/data/admin-errors.server.ts";

const venture = {
  name: "Ledger",
  slug: "ledger",
  websiteURL: "https://example.com",
  shortDescription: "Short.",
  caseStudy: "<p>Case.</p>",
};

/** The texts of the venture form's issues for `values`, by field, in `locale`. */
function errorsOf(values: Record<string, string>, locale: "en" | "ar"): Record<string, string> {
  const result = (formSchema("venture") as z.ZodType).safeParse(values);
  const errors: Record<string, string> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const name = String(issue.path[0]);
    errors[name] ??= issueText(locale, "venture", name, issue, values[name] ?? "");
  }
  return errors;
}

describe("the admin's field errors", () => {
  it("name the field, in English and Arabic; spaces only are a missing value", () => {
    const values = { ...venture, name: "   ", slug: "Bad--Slug", caseStudy: "" };
    expect(errorsOf(values, "en")).toEqual({
      name: "Name is required.",
      slug: "Slug must be lowercase letters, digits and single hyphens (e.g. my-venture).",
      caseStudy: "Case Study is required.",
    });
    expect(errorsOf(values, "ar")).toEqual({
      name: "الاسم مطلوب.",
      slug: "يجب أن يتكوّن «المعرّف» من أحرف لاتينية صغيرة وأرقام وشرطات مفردة (مثل my-venture).",
      caseStudy: "دراسة الحالة مطلوبة.",
    });
  });

  it("tell a too long value and a refused URL scheme in the admin's language", () => {
    const values = { ...venture, name: "x".repeat(300), websiteURL: "javascript:alert(1)" };
    const en = errorsOf(values, "en");
    expect(en.name).toMatch(/^Name must be at most \d+ characters\.$/);
    expect(en.websiteURL).toBe(
      "Enter a full web address that starts with http:// or https://, such as https://example.com.",
    );
    expect(errorsOf(values, "ar").name).toMatch(/^يجب ألّا يتجاوز «الاسم» \d+ حرفًا\.$/);
  });

  it("name the other language version's field with its language", () => {
    const result = (formSchema("venture") as z.ZodType).safeParse({ ...venture, name: "" });
    const issue = result.success ? null : result.error.issues[0]!;
    expect(issueText("en", "venture", "name", issue!, "", "ar")).toBe("Name (العربية) is required.");
  });
});

describe("the admin's save and image messages", () => {
  it("make a taken slug the slug field's error, translated; other failures stay the form's", () => {
    const taken = "Another item already uses this slug; choose a different one.";
    expect(submissionText("en", taken)).toEqual({ field: "slug", text: taken });
    expect(submissionText("ar", taken)).toEqual({
      field: "slug",
      text: "عنصر آخر يستخدم هذا المعرّف بالفعل؛ اختر معرّفًا مختلفًا.",
    });
    expect(submissionText("ar", "An error occurred during submission. Please try again.")).toEqual({
      field: null,
      text: "حدث خطأ أثناء الإرسال. يرجى المحاولة مرة أخرى.",
    });
  });

  it("translate the image refusals of checkImage", () => {
    const type = "Only JPEG, PNG, GIF or WebP images can be uploaded.";
    expect(imageRefusalText("en", type)).toBe(type);
    expect(imageRefusalText("ar", type)).toBe("لا يمكن رفع إلا صور JPEG أو PNG أو GIF أو WebP.");
    expect(imageRefusalText("ar", "The image is larger than 5 MB; choose a smaller one.")).toBe(
      "حجم الصورة أكبر من 5 ميغابايت؛ اختر صورة أصغر.",
    );
  });
});
