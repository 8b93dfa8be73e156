/**
 * Issue #29 item 2: a venture scheduled to the minute (a wall time in Asia/Riyadh) goes public within a minute
 * of its time. The scheduler's pass runs with an injected clock (no sleep): not due a second before, promoted
 * at the time, and the running scheduler never waits longer than `SCHEDULE_RECHECK_MS` (30 s) nor past the
 * due time.
 */
import { Permission, Role } from "node-appwrite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_ID } from "../../model/content.ts";
import { CONTENT_MODEL } from "../../model/model.ts";
import { promoteDue, SCHEDULE_RECHECK_MS, startScheduler } from "../../lib/publish/schedule.ts";
import { createItemDocument } from "../../lib/publish/writer.ts";
import { instantOf } from "../../lib/text/time-zone.ts";
import { startBackend, type Backend } from "../helpers/stack.ts";

let backend: Backend;
beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => {
  await backend?.close();
});

const row = (id: string) =>
  backend.services.tablesDB.getRow({ databaseId: DATABASE_ID, tableId: CONTENT_MODEL.venture.collectionId, rowId: id });

describe("scheduled to the minute", () => {
  it("publishes a venture due at 09:07 Riyadh time at that minute, not a second before", async () => {
    // Far ahead, so no other pass (another test's, a real clock's) reaches it.
    const due = instantOf("2099-03-04T09:07", "Asia/Riyadh");
    expect(due.toISOString()).toBe("2099-03-04T06:07:00.000Z");
    const created = await createItemDocument(backend.services.tablesDB, {
      kind: "venture",
      data: {
        name: "Minute Venture",
        slug: "minute-venture",
        websiteURL: "https://minute.example",
        shortDescription: "Due at a minute.",
        caseStudy: "<p>Soon.</p>",
      },
      permissions: [Permission.read(Role.any())],
      lifecycle: { state: "scheduled", publishAt: due },
    });
    expect(created.$permissions).not.toContain('read("any")');

    const early = await promoteDue(backend.services, due.getTime() - 1000);
    expect(early.promoted).toBe(0);
    expect(early.nextDue).toBe(due.getTime());
    expect((await row(created.$id)).status).toBe("scheduled");

    // The scheduler started a minute before waits for the due time, not longer.
    const waits: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const scheduler = startScheduler(backend.services, {
      onDue: () => {},
      now: () => due.getTime() - 60_000,
    });
    try {
      globalThis.setTimeout = ((fn: () => void, ms?: number) => {
        waits.push(ms ?? 0);
        return realSetTimeout(() => {}, 0);
      }) as typeof setTimeout;
      await scheduler.ready;
    } finally {
      globalThis.setTimeout = realSetTimeout;
      scheduler.close();
    }
    expect(scheduler.nextDue).toBe(due.getTime());
    expect(waits.at(-1)).toBeLessThanOrEqual(Math.min(SCHEDULE_RECHECK_MS, 60_000));
    expect(SCHEDULE_RECHECK_MS).toBeLessThanOrEqual(30_000);

    const onTime = await promoteDue(backend.services, due.getTime());
    expect(onTime.promoted).toBe(1);
    const published = await row(created.$id);
    expect(published.status).toBe("published");
    expect(published.$permissions).toContain('read("any")');
  });
});
