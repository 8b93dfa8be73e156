/**
 * The first half of `studio push` (`push.ts`): the content folder read and validated, Appwrite's rows listed,
 * the files the plan compares read whole, and the plan made (`planPush`).
 */
import { CONTENT_KIND_NAMES, versionKey } from "../../model/model.ts";
import type { AdminServices } from "../appwrite/client.ts";
import { asUnreachable } from "../appwrite/unreachable.ts";
import type { ContentIssue, ContentItem } from "../content/read.ts";
import { itemKey, localeOfFile } from "../content/versions.ts";
import type { ProjectLock } from "./lock.ts";
import { planPush, type PlannedItem } from "./plan.ts";
import { forEachLimit } from "./push-apply.ts";
import { OFF_THREAD_FROM } from "./push-bulk.ts";
import { prestartSanitizerThread } from "../html/sanitize-thread.ts";
import { trackedCount } from "./push-guards.ts";
import { dropPlanningFields, loadItem, readForPush, type PushStub, type ReadCounts } from "./push-read.ts";
import type { PushEvent, PushOptions, PushPhases } from "./push-types.ts";
import { readRemoteForPush } from "./remote-light.ts";
import { remoteChangedSince } from "./remote.ts";
import { selectContent, selectPlanned } from "./selection.ts";
import { defaultTimeZone, siteTimeZone } from "./site-time-zone.ts";
import { trashedVersions } from "./trash.ts";

/** What `push` keeps of the content folder once it is planned: the plan, and what the summary reports. */
export interface ReadPlan {
  planned: PlannedItem[];
  /** Items the lock says were pushed that are still those documents (`trackedCount`). */
  tracked: number;
  issues: ContentIssue[];
  warnings: ContentIssue[] | undefined;
  /** The files of the drafts. */
  drafts: string[];
  /** Invalid files (each counts once in `failed`). */
  invalid: number;
  read: ReadCounts;
}

/**
 * Reads and validates the content folder, reads Appwrite and plans: the first half of `push` (see there for
 * what it throws). The items read are held only by the returned plan (each by its entry; `release` drops
 * them once written), not by an array of the whole folder besides (issue #33 item 6).
 */
export async function readAndPlan(
  services: AdminServices,
  options: PushOptions,
  project: ProjectLock,
  emit: (event: PushEvent) => void,
  phases: { lap(name: keyof PushPhases): void },
): Promise<ReadPlan> {
  // Bodies pushed before passed the body bounds: an unchanged one is not rendered again (issue #33 item 5).
  const checkedBodies = new Set(
    CONTENT_KIND_NAMES.flatMap((kind) => Object.values(project[kind]).flatMap((e) => (e.body ? [e.body] : []))),
  );
  // `studio push <file|slug>…`: only the named items (both versions), by the same rules (issue #34).
  // Small records, not parsed files, until each is written (`push-read.ts`); unchanged files are not parsed.
  // Files parsed are new or changed: from `OFF_THREAD_FROM` of them, the sanitizer thread loads meanwhile, ready
  // for the writes (`createInBatches`).
  const onParsed = (parsed: number) => {
    if (parsed === (options.offThreadFrom ?? OFF_THREAD_FROM) && !options.dryRun) void prestartSanitizerThread();
  };
  const { counts: read, ...all } = await readForPush(options.contentDir, project, { checkedBodies, onParsed });
  const content = selectContent(all, options.only);
  checkedBodies.clear();
  phases.lap("read");
  // Drafts are pushed too, as documents guests cannot read (issue #16; the writer derives the permissions).
  const drafts = content.items.filter((i) => i.draft).map((i) => i.file);
  const publishable = content.items;
  const invalidFiles = new Set(content.issues.map((i) => i.file));
  emit({
    type: "validated",
    valid: publishable.length - drafts.length,
    invalid: invalidFiles.size,
    drafts: drafts.length,
  });

  // Whole rows only where the plan reads them (issue #33 item 6): an unchanged item's body is never read.
  const hashOf = (item: ContentItem) => (item as PushStub).stub.hash;
  const remote = await readRemoteForPush(services, publishable, project, hashOf).catch((error: unknown) => {
    throw asUnreachable(services.target.endpoint, error, "nothing was written");
  });
  phases.lap("list");
  // The plan compares an update's fields with its row, and decides a create's state from the front matter a
  // file known unchanged by its stat did not give: those items are read whole now (a re-push: none).
  const whole = publishable.filter((item) => {
    const row = remote[item.kind].get(itemKey(item));
    const entry = project[item.kind][itemKey(item)];
    const unchanged = row && entry && !remoteChangedSince(item.kind, entry, row) && entry.hash === item.stub.hash;
    return !unchanged && (row || item.stub.by);
  });
  // A file that no longer reads as a valid item since it was read is left out, as an invalid file is.
  const unreadable = new Set<ContentItem>();
  await forEachLimit(whole, 16, async (item) => {
    const loaded = await loadItem(item, { planning: true });
    if (!("error" in loaded)) return;
    unreadable.add(item);
    content.issues.push({ file: item.file, field: "file", message: loaded.error });
    invalidFiles.add(item.file);
  });
  phases.lap("load");
  // A file's version is never pruned while it is invalid, nor the version a duplicated slug holds back.
  const protectedSlugs = new Set([
    ...[...invalidFiles].map((f) => {
      const { locale, stem } = localeOfFile(f);
      return versionKey(stem, locale);
    }),
    ...content.issues.flatMap((i) => (i.blocks ? [i.blocks.key] : [])),
  ]);
  const planned = selectPlanned(
    options.only,
    planPush({
      target: services.target,
      items: unreadable.size ? publishable.filter((item) => !unreadable.has(item)) : publishable,
      protectedSlugs,
      remote,
      lock: project,
      force: options.force ?? false,
      prune: options.prune ?? false,
      hashOf,
      // A file whose item is in the site's trash is refused, never created beside it (issue #29 item 9).
      trashed: await trashedVersions(services.tablesDB).catch((error: unknown) => {
        throw asUnreachable(services.target.endpoint, error, "nothing was written");
      }),
      // The plan names scheduled times in the site's zone (issue #29); unreadable, the environment's default.
      timeZone: await siteTimeZone(services.client).catch(() => defaultTimeZone()),
    }),
  );
  for (const p of planned) dropPlanningFields(p.item);
  const tracked = trackedCount(project, remote);
  phases.lap("plan");
  return {
    planned,
    tracked,
    issues: content.issues,
    warnings: content.warnings,
    drafts,
    invalid: invalidFiles.size,
    read,
  };
}
