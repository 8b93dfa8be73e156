import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ID, Messaging, MessagingProviderType, Query, Users } from "node-appwrite";
import type { Models } from "node-appwrite";
import { rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";
import { startSmtpSink } from "./smtp-sink.ts";
import type { SmtpSink } from "./smtp-sink.ts";

let env: TestEmulator;
let sink: SmtpSink;
let messaging: Messaging;
let users: Users;

const SUBJECT = "رسالة جديدة من نموذج التواصل";
const BODY = "مرحبا، وصلتنا رسالة جديدة.\nالاسم: ليلى";

beforeAll(async () => {
  sink = await startSmtpSink();
  env = await startTestEmulator();
  messaging = new Messaging(env.admin);
  users = new Users(env.admin);
  await users.create({ userId: "team", email: "Team@Studio.test", name: "Team" });
});

afterAll(async () => {
  await env.stop();
  await sink.stop();
});

/** Poll the message until it leaves `processing` (delivery runs after createEmail answers). */
async function settled(messageId: string): Promise<Models.Message> {
  for (let i = 0; i < 400; i++) {
    const message = await messaging.getMessage({ messageId });
    if (message.status !== "processing") return message;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`message ${messageId} is still processing`);
}

describe("messaging: e-mail through a real SMTP server", () => {
  it("given no enabled provider, when an e-mail is created, then it is stored as failed with 'No enabled provider found.'", async () => {
    const created = await messaging.createEmail({
      messageId: "no-provider",
      subject: SUBJECT,
      content: BODY,
      users: ["team"],
    });
    expect(created).toMatchObject({ $id: "no-provider", providerType: "email", status: "processing", users: ["team"] });
    const message = await settled("no-provider");
    expect(message).toMatchObject({
      status: "failed",
      deliveryErrors: ["No enabled provider found."],
      deliveredTotal: 0,
    });
    expect(message.data).toMatchObject({ subject: SUBJECT, content: BODY, html: false });
    expect(sink.mails).toHaveLength(0);
  });

  it("given a user, then the e-mail target Appwrite creates with the user is listed, readable and editable", async () => {
    const list = await users.listTargets({ userId: "team" });
    expect(list.total).toBe(1);
    expect(list.targets[0]).toMatchObject({
      userId: "team",
      providerType: "email",
      identifier: "team@studio.test",
      providerId: null,
      expired: false,
    });
    const targetId = list.targets[0]?.$id ?? "";
    const renamed = await users.updateTarget({ userId: "team", targetId, name: "Inbox" });
    expect(renamed).toMatchObject({ $id: targetId, name: "Inbox" });
    expect(await users.getTarget({ userId: "team", targetId })).toMatchObject({ name: "Inbox" });

    const extra = await users.createTarget({
      userId: "team",
      targetId: "team-second",
      providerType: MessagingProviderType.Email,
      identifier: "second@studio.test",
    });
    expect(extra).toMatchObject({ $id: "team-second", identifier: "second@studio.test", userId: "team" });
    const taken = await rejection(
      users.createTarget({
        userId: "team",
        targetId: "team-third",
        providerType: MessagingProviderType.Email,
        identifier: "second@studio.test",
      }),
    );
    expect([taken.code, taken.type]).toEqual([409, "user_target_already_exists"]);
    const bad = await rejection(
      users.createTarget({
        userId: "team",
        targetId: "t4",
        providerType: MessagingProviderType.Email,
        identifier: "nope",
      }),
    );
    expect([bad.code, bad.type]).toEqual([400, "general_invalid_email"]);
    const filtered = await users.listTargets({
      userId: "team",
      queries: [Query.equal("identifier", "second@studio.test")],
    });
    expect(filtered.targets.map((t) => t.$id)).toEqual(["team-second"]);
    await users.deleteTarget({ userId: "team", targetId: "team-second" });
    const gone = await rejection(users.getTarget({ userId: "team", targetId: "team-second" }));
    expect([gone.code, gone.type]).toEqual([404, "user_target_not_found"]);
  });

  it("given an SMTP provider, then it can be created, listed, read, updated and deleted with Appwrite's model", async () => {
    const draft = await messaging.createSMTPProvider({ providerId: "spare", name: "Spare", host: "127.0.0.1" });
    expect(draft).toMatchObject({
      $id: "spare",
      name: "Spare",
      provider: "smtp",
      type: "email",
      enabled: false,
      credentials: { host: "127.0.0.1", port: 587, username: "", password: "" },
      options: { encryption: "", autoTLS: true, fromName: "", mailer: "" },
    });
    const missing = await rejection(messaging.updateSMTPProvider({ providerId: "spare", enabled: true }));
    expect([missing.code, missing.type]).toEqual([400, "provider_missing_credentials"]);
    const updated = await messaging.updateSMTPProvider({
      providerId: "spare",
      fromEmail: "spare@studio.test",
      port: 2525,
    });
    expect(updated.credentials).toMatchObject({ port: 2525 });
    expect(updated.options).toMatchObject({ fromEmail: "spare@studio.test" });
    const duplicate = await rejection(messaging.createSMTPProvider({ providerId: "spare", name: "Again", host: "x" }));
    expect([duplicate.code, duplicate.type]).toEqual([409, "provider_already_exists"]);
    expect((await messaging.listProviders()).providers.map((p) => p.$id)).toEqual(["spare"]);
    expect((await messaging.getProvider({ providerId: "spare" })).name).toBe("Spare");
    await messaging.deleteProvider({ providerId: "spare" });
    const gone = await rejection(messaging.getProvider({ providerId: "spare" }));
    expect([gone.code, gone.type]).toEqual([404, "provider_not_found"]);
  });

  it("given an enabled SMTP provider, when an e-mail goes to a user, then the SMTP server receives it with From, To, Subject and the Arabic body", async () => {
    await messaging.createSMTPProvider({
      providerId: "mail",
      name: "Test SMTP",
      host: "127.0.0.1",
      port: sink.port,
      fromEmail: "hello@studio.test",
      fromName: "الاستوديو",
      enabled: true,
    });
    await messaging.createEmail({ messageId: "welcome", subject: SUBJECT, content: BODY, users: ["team"] });
    const message = await settled("welcome");
    expect(message).toMatchObject({ status: "sent", deliveredTotal: 1, deliveryErrors: [] });
    expect(message.deliveredAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*\+00:00$/);
    expect(sink.mails).toHaveLength(1);
    const mail = sink.mails[0];
    expect(mail?.from).toBe("hello@studio.test");
    expect(mail?.to).toEqual(["team@studio.test"]);
    expect(mail?.headers.get("from")).toContain("الاستوديو");
    expect(mail?.headers.get("to")).toBe("team@studio.test");
    expect(mail?.subject).toBe(SUBJECT);
    expect(mail?.body.replace(/\r\n/g, "\n")).toBe(BODY);
    expect(mail?.headers.get("content-type")).toMatch(/text\/plain; charset=utf-8/i);
  });

  it("given html true and a target, then the mail goes to that target as HTML", async () => {
    const [target] = (await users.listTargets({ userId: "team" })).targets;
    await messaging.createEmail({
      messageId: "html",
      subject: "HTML",
      content: '<p dir="rtl">مرحبا</p>',
      targets: [target?.$id ?? ""],
      html: true,
    });
    expect(await settled("html")).toMatchObject({ status: "sent", deliveredTotal: 1 });
    const mail = sink.mails.at(-1);
    expect(mail?.headers.get("content-type")).toMatch(/text\/html/i);
    expect(mail?.body).toBe('<p dir="rtl">مرحبا</p>');
  });

  it("given the SMTP server is down, then the message is failed with the error and kept; after a restart a new send delivers it", async () => {
    const before = sink.mails.length;
    await sink.stop();
    await messaging.createEmail({ messageId: "while-down", subject: SUBJECT, content: BODY, users: ["team"] });
    const failed = await settled("while-down");
    expect(failed.status).toBe("failed");
    expect(failed.deliveredTotal).toBe(0);
    expect(failed.deliveryErrors?.[0]).toMatch(
      /^Failed sending to target team@studio\.test with error: .*ECONNREFUSED/,
    );
    // Appwrite does not edit a failed message (400 message_already_failed): the content stays
    // readable, and re-sending is a new message with the same content.
    const edit = await rejection(messaging.updateEmail({ messageId: "while-down", draft: false }));
    expect([edit.code, edit.type]).toEqual([400, "message_already_failed"]);

    await sink.restart();
    const kept = await messaging.getMessage({ messageId: "while-down" });
    const data = kept.data as { subject: string; content: string };
    await messaging.createEmail({
      messageId: "while-down-again",
      subject: data.subject,
      content: data.content,
      users: kept.users,
    });
    expect(await settled("while-down-again")).toMatchObject({ status: "sent", deliveredTotal: 1 });
    expect(sink.mails).toHaveLength(before + 1);
    expect(sink.mails.at(-1)?.body.replace(/\r\n/g, "\n")).toBe(BODY);
    expect((await messaging.getMessage({ messageId: "while-down" })).status).toBe("failed");
  });

  it("given a draft, when it is updated with draft false, then it is sent; without recipients the API refuses", async () => {
    const draft = await messaging.createEmail({ messageId: "draft", subject: "Draft", content: "x", draft: true });
    expect(draft).toMatchObject({ status: "draft", users: [], targets: [], topics: [] });
    const noRecipient = await rejection(messaging.updateEmail({ messageId: "draft", draft: false }));
    expect([noRecipient.code, noRecipient.type]).toEqual([400, "message_missing_target"]);
    const sending = await messaging.updateEmail({
      messageId: "draft",
      draft: false,
      users: ["team"],
      content: "ready",
    });
    expect(sending.status).toBe("processing");
    expect(await settled("draft")).toMatchObject({ status: "sent", deliveredTotal: 1 });
    expect(sink.mails.at(-1)?.body).toBe("ready");

    const none = await rejection(messaging.createEmail({ messageId: "none", subject: "s", content: "c" }));
    expect([none.code, none.type]).toEqual([400, "message_missing_target"]);
    const unknown = await rejection(
      messaging.createEmail({ messageId: "unknown", subject: "s", content: "c", targets: ["nobody"] }),
    );
    expect([unknown.code, unknown.type]).toEqual([404, "user_target_not_found"]);
  });

  it("given a future scheduledAt, then the message is scheduled and kept until due", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await messaging.createEmail({
      messageId: "later",
      subject: "Later",
      content: "x",
      users: ["team"],
      scheduledAt: at,
    });
    expect(scheduled.status).toBe("scheduled");
    expect(new Date(scheduled.scheduledAt ?? "").getTime()).toBe(new Date(at).getTime());
    const past = await rejection(
      messaging.createEmail({
        messageId: "past",
        subject: "s",
        content: "c",
        users: ["team"],
        scheduledAt: "2001-01-01T00:00:00Z",
      }),
    );
    expect([past.code, past.type]).toEqual([400, "general_argument_invalid"]);
    await messaging.delete({ messageId: "later" });
  });

  it("given messages, then list filters by status and get/delete follow Appwrite's errors", async () => {
    const failed = await messaging.listMessages({ queries: [Query.equal("status", "failed")] });
    expect(failed.messages.map((m) => m.$id).sort()).toEqual(["no-provider", "while-down"]);
    expect((await messaging.listMessages()).total).toBeGreaterThanOrEqual(5);
    await messaging.delete({ messageId: "no-provider" });
    const gone = await rejection(messaging.getMessage({ messageId: "no-provider" }));
    expect([gone.code, gone.type]).toEqual([404, "message_not_found"]);
    const again = await rejection(
      messaging.createEmail({ messageId: "welcome", subject: "s", content: "c", users: ["team"] }),
    );
    expect([again.code, again.type]).toEqual([409, "message_already_exists"]);
  });
});

describe("messaging: restart", () => {
  it("given the embedded server stops while a mail is being sent, then the message is kept and sent at the next start", async () => {
    const slow = await startSmtpSink();
    const first = await startTestEmulator();
    try {
      await new Users(first.admin).create({ userId: "u", email: "u@studio.test" });
      const m = new Messaging(first.admin);
      await m.createSMTPProvider({
        providerId: "p",
        name: "P",
        host: "127.0.0.1",
        port: slow.port,
        fromEmail: "hello@studio.test",
        enabled: true,
      });
      slow.hold();
      await m.createEmail({ messageId: "interrupted", subject: "Kept", content: "body", users: ["u"] });
      for (let i = 0; i < 400 && slow.held() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(slow.held()).toBe(1);
      await first.emulator.close();
      slow.refuseHeld();
      expect(slow.mails).toHaveLength(0);

      const second = await startTestEmulator(first.dataDir);
      try {
        const m2 = new Messaging(second.admin);
        let message = await m2.getMessage({ messageId: "interrupted" });
        for (let i = 0; i < 400 && message.status === "processing"; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          message = await m2.getMessage({ messageId: "interrupted" });
        }
        expect(message).toMatchObject({ status: "sent", deliveredTotal: 1 });
        expect(slow.mails.map((mail) => mail.subject)).toEqual(["Kept"]);
      } finally {
        await second.stop();
      }
    } finally {
      await slow.stop();
    }
  });
});

describe("messaging: SMTP_URL", () => {
  it("given SMTP_URL, then the embedded server has an enabled 'smtp-url' provider that delivers", async () => {
    const url = `smtp://127.0.0.1:${sink.port}?from=${encodeURIComponent("Studio <hello@studio.test>")}`;
    const other = await startTestEmulator(undefined, { smtpUrl: url });
    try {
      const m = new Messaging(other.admin);
      const provider = await m.getProvider({ providerId: "smtp-url" });
      expect(provider).toMatchObject({ enabled: true, provider: "smtp", type: "email" });
      expect(provider.options).toMatchObject({ fromEmail: "hello@studio.test", fromName: "Studio" });
      await new Users(other.admin).create({ userId: ID.unique(), email: "url@studio.test" });
      await m.createEmail({
        messageId: "via-url",
        subject: "Via URL",
        content: "ok",
        users: [],
        targets: [
          (await new Users(other.admin).list({ queries: [Query.equal("email", "url@studio.test")] })).users[0]
            ?.targets[0]?.$id ?? "",
        ],
      });
      let message = await m.getMessage({ messageId: "via-url" });
      for (let i = 0; i < 400 && message.status === "processing"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        message = await m.getMessage({ messageId: "via-url" });
      }
      expect(message).toMatchObject({ status: "sent", deliveredTotal: 1 });
      expect(sink.mails.at(-1)).toMatchObject({
        from: "hello@studio.test",
        to: ["url@studio.test"],
        subject: "Via URL",
      });
    } finally {
      await other.stop();
    }
  });

  it("given an SMTP_URL without a sender, then the server refuses to start and says what to add", async () => {
    await expect(startTestEmulator(undefined, { smtpUrl: "smtp://127.0.0.1:25" })).rejects.toThrow(/\?from=/);
  });
});
