/**
 * The admin's flash messages (issue #17 item 3): which confirmation a save gives, their English and Arabic
 * texts, and the cookie carrying them through a redirect: signed, read once, refused when forged.
 */
import { AppwriteException, type Models } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteFailureOf, flashText, setFlash, takeFlash } from "../../web/data/admin-flash.server.ts";
import { publishFlash } from "../../web/data/admin-publish.server.ts";

beforeAll(() => {
  process.env.PREVIEW_SECRET = "a-preview-secret-for-the-flash-unit-test-0123456789";
});
afterAll(() => {
  delete process.env.PREVIEW_SECRET;
});

const venture = (fields: Record<string, unknown>) =>
  ({ $id: "v1", name: "Clinic Ledger", slug: "clinic-ledger", ...fields }) as unknown as Models.DefaultRow;

describe("publishFlash", () => {
  const rows = (...pairs: [string, Models.DefaultRow][]) => new Map(pairs) as Map<"en" | "ar", Models.DefaultRow>;
  const context = { held: [] as ("en" | "ar")[], zone: "Asia/Riyadh" };
  it("says saved for a save whatever the state, and names the versions a publish made public (issue #29)", () => {
    const published = venture({ status: "published" });
    const draft = venture({ status: "draft" });
    expect(publishFlash("venture", rows(["en", draft]), "save", null, context)).toEqual({
      event: "created",
      name: "Clinic Ledger",
    });
    expect(publishFlash("venture", rows(["en", published]), "save", "published", context).event).toBe("saved");
    expect(publishFlash("venture", rows(["en", draft]), "save", "draft", context).event).toBe("saved");
    expect(publishFlash("venture", rows(["en", draft]), "unpublish", "published", context).event).toBe("unpublished");
    expect(
      publishFlash("venture", rows(["en", published], ["ar", draft]), "publish", "draft", { ...context, held: ["ar"] }),
    ).toEqual({
      event: "published",
      name: "Clinic Ledger",
      versions: ["en"],
      held: ["ar"],
    });
    const scheduled = venture({ status: "scheduled", publishAt: "2026-12-01T06:00:00.000+00:00" });
    expect(publishFlash("venture", rows(["en", scheduled]), "publish", "draft", context)).toEqual({
      event: "scheduled",
      name: "Clinic Ledger",
      date: "2026-12-01T06:00:00.000+00:00",
      zone: "Asia/Riyadh",
      versions: ["en"],
      held: [],
    });
  });
});

describe("flashText", () => {
  const strip = (text: string) => text.replace(/[\u2068\u2069]/g, "");
  it("names the item in the admin's language, its name isolated from the sentence's direction", () => {
    expect(flashText({ event: "saved", name: "Clinic Ledger" }, "en")).toBe("Saved “\u2068Clinic Ledger\u2069”.");
    expect(strip(flashText({ event: "deleted", name: "Clinic Ledger" }, "en"))).toBe(
      "Moved “Clinic Ledger” to the trash.",
    );
    expect(strip(flashText({ event: "unpublished", name: "X" }, "en"))).toBe("“X” is now a draft.");
    const date = "2026-12-01T00:00:00.000Z";
    expect(strip(flashText({ event: "scheduled", name: "Clinic Ledger", date }, "en"))).toBe(
      "“Clinic Ledger” is scheduled for 1 Dec 2026, 00:00 UTC.",
    );
    expect(strip(flashText({ event: "saved", name: "Clinic Ledger" }, "ar"))).toBe("تم حفظ «Clinic Ledger».");
    expect(strip(flashText({ event: "scheduled", name: "دفتر", date }, "ar"))).toBe(
      "«دفتر» مجدول للنشر في 1 ديسمبر 2026، 00:00 \u2066UTC.",
    );
    // Issue #29: the time in the site's zone, the versions that went public and those held back.
    const riyadh = { event: "scheduled", name: "X", date: "2026-12-01T06:00:00Z", zone: "Asia/Riyadh" } as const;
    expect(strip(flashText({ ...riyadh, versions: ["en", "ar"] }, "en"))).toBe(
      "“X” is scheduled for 1 Dec 2026, 09:00 Asia/Riyadh (UTC+03:00): English, العربية.",
    );
    expect(strip(flashText({ event: "published", name: "X", versions: ["en"], held: ["ar"] }, "en"))).toBe(
      "Published “X”: English. Not published, its translation not reviewed yet: العربية.",
    );
    expect(strip(flashText({ ...riyadh, versions: ["ar"] }, "ar"))).toBe(
      "«X» مجدول للنشر في 1 ديسمبر 2026، 09:00 \u2066Asia/Riyadh (UTC+03:00): العربية.",
    );
    expect(flashText({ event: "passwordUpdated" }, "en")).toBe("Password updated successfully.");
    expect(flashText({ event: "nameUpdated" }, "ar")).toBe("تم تحديث الاسم بنجاح.");
    expect(flashText({ event: "passwordUpdated" }, "ar")).toBe("تم تحديث كلمة المرور بنجاح.");
    // The Arabic admin's publish and unpublish (a new item there is its Arabic version, issue #29 item 5).
    expect(strip(flashText({ event: "published", name: "دفتر", versions: ["ar"] }, "ar"))).toBe(
      "تم نشر «دفتر»: العربية.",
    );
    expect(strip(flashText({ event: "unpublished", name: "دفتر" }, "ar"))).toBe("أصبح «دفتر» مسودة.");
    expect(strip(flashText({ event: "deleteFailed", name: "X", reason: "permission" }, "en"))).toBe(
      "“X” was not deleted: you don't have permission to delete it.",
    );
    expect(strip(flashText({ event: "deleteFailed", name: "X", reason: "missing" }, "ar"))).toBe(
      "لم يُحذف «X»: لم يعد موجودًا (ربما حذفه أحد قبلك). القائمة تعرض الآن ما هو موجود.",
    );
  });

  it("says why a delete failed from Appwrite's answer", () => {
    expect(deleteFailureOf(new AppwriteException("no", 401))).toBe("permission");
    expect(deleteFailureOf(new AppwriteException("gone", 404))).toBe("missing");
    expect(deleteFailureOf(new AppwriteException("down", 503))).toBe("other");
    expect(deleteFailureOf(new Error("network"))).toBe("other");
  });
});

describe("the flash cookie", () => {
  const url = "http://localhost/admin/ventures";
  const cookieOf = (setCookie: string) => setCookie.split(";")[0]!;

  it("is HttpOnly, SameSite=Lax, short-lived, read once in the admin's language and cleared", async () => {
    const setCookie = await setFlash(new Request(url), { event: "deleted", name: "Clinic Ledger" });
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Max-Age=60/);
    const request = new Request(url, { headers: { Cookie: cookieOf(setCookie) } });
    const { flash, setCookie: clear } = await takeFlash(request, "ar");
    expect(flash?.tone).toBe("success");
    expect(flash?.text.replace(/[\u2068\u2069]/g, "")).toBe("نُقل «Clinic Ledger» إلى سلة المهملات.");
    expect(clear).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect((await takeFlash(new Request(url), "en")).flash).toBeNull();
  });

  it("is __Host- and Secure on https, and a forged one is refused (and cleared)", async () => {
    const https = "https://example.com/admin";
    const setCookie = await setFlash(new Request(https), { event: "deleteFailed", name: "X", reason: "other" });
    expect(setCookie).toMatch(/^__Host-admin_flash=/);
    expect(setCookie).toMatch(/Secure/);
    const ok = await takeFlash(new Request(https, { headers: { Cookie: cookieOf(setCookie) } }), "en");
    expect(ok.flash?.tone).toBe("error");
    const forged = btoa(JSON.stringify({ event: "saved", name: "Call 555-0100", id: "x" }));
    const refused = await takeFlash(new Request(https, { headers: { Cookie: `__Host-admin_flash=${forged}` } }), "en");
    expect(refused.flash).toBeNull();
    expect(refused.setCookie).toBeDefined();
  });
});
