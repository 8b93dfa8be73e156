/**
 * The inbox's pure rules (issue #31): CSV cells a spreadsheet will not run, the retention setting's input,
 * the e-mails' texts (never the visitor's words in a subject or in the sender's confirmation), states.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { inboxCsv, inertCell } from "../../lib/inbox/csv.ts";
import { replySubject, senderConfirmation, teamNotice } from "../../lib/inbox/mail-texts.ts";
import { parseRetentionDays } from "../../lib/inbox/settings.ts";
import type { InboxItem } from "../../lib/inbox/store.ts";
import { isInboxState, stateOf } from "../../model/inbox.ts";

const item: InboxItem = {
  kind: "contactMessage",
  id: "a1",
  createdAt: "2026-11-27T03:00:00.000+00:00",
  name: "ليلى",
  email: "layla@example.com",
  text: 'سطر أول\nسطر "ثان", مع فاصلة',
  locale: "ar",
  state: "new",
  readAt: null,
};

describe("the CSV export", () => {
  it("starts with a BOM and round-trips Arabic, quotes, commas and new lines through csv-parse", () => {
    const text = inboxCsv([item]);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      {
        kind: "contactMessage",
        received: item.createdAt,
        name: "ليلى",
        email: "layla@example.com",
        language: "ar",
        state: "new",
        text: item.text,
      },
    ]);
  });

  it("prefixes cells a spreadsheet would run as a formula (OWASP CSV injection)", () => {
    for (const cell of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(inertCell(cell)).toBe(`'${cell}`);
    expect(inertCell("Hello =1")).toBe("Hello =1");
  });
});

describe("the retention setting", () => {
  it("reads empty and 0 as off, whole days from 1 to 3650 as such, and refuses anything else saying what is accepted", () => {
    expect(parseRetentionDays("")).toBe(0);
    expect(parseRetentionDays(" 0 ")).toBe(0);
    expect(parseRetentionDays("30")).toBe(30);
    for (const bad of ["-1", "1.5", "abc", "3651", "1e3"]) {
      expect(() => parseRetentionDays(bad)).toThrow(/whole number of days from 1 to 3650, or 0 for off/);
    }
  });
});

describe("the inbox's e-mails", () => {
  it("names the kind and the language in the team's subject, never the visitor's words; the body links to the item", () => {
    const notice = teamNotice({
      ...item,
      receivedAt: item.createdAt,
      link: "https://studio.example/admin/inbox/contactMessage/a1",
    });
    expect(notice.subject).toBe("New contact message (Arabic) · رسالة تواصل جديدة (العربية)");
    expect(notice.content).toContain(item.text);
    expect(notice.content).toContain("https://studio.example/admin/inbox/contactMessage/a1");
  });

  it("confirms in the page's language and quotes nothing the visitor wrote", () => {
    expect(senderConfirmation("communityApplication", "en").subject).toBe("We received your application");
    const arabic = senderConfirmation("contactMessage", "ar");
    expect(arabic.subject).toBe("تلقّينا رسالتك");
    expect(arabic.content).toContain("شكرًا لرسالتك");
    expect(senderConfirmation("contactMessage", "fr").subject).toBe("We received your message");
    expect(replySubject("contactMessage", "ar")).toBe("رد: تلقّينا رسالتك");
  });
});

describe("states", () => {
  it("reads a row without a state as new and refuses unknown states", () => {
    expect(stateOf({})).toBe("new");
    expect(stateOf({ state: "spam" })).toBe("spam");
    expect(isInboxState("deleted")).toBe(false);
  });
});
