/**
 * The push plan (issue #7): for every content file and every item the lock says was pushed, what applying
 * does, decided from the file, the Appwrite document and the lock (ARCHITECTURE decision 7: never silently
 * overwrite an edit made in the admin since the last push or pull).
 */
import type { Models } from "node-appwrite";
import { CONTENT_KINDS, IMAGES_BUCKET_ID, type ContentKind } from "../../model/content.ts";
import { fileViewUrl, type AppwriteTarget } from "../appwrite/client.ts";
import { bodyDigest, sha256Hex } from "../content/body-digest.ts";
import type { ContentItem, LocalImage } from "../content/read.ts";
import {
  changedFields,
  imageFileId,
  lifecycleFields,
  localImage,
  managedFields,
  mediaPath,
  type ManagedFields,
} from "./documents.ts";
import { contentHash, type LockEntry, type ProjectLock } from "./lock.ts";
import { remoteChangedSince } from "./remote.ts";
import { PUBLISH_AT_COLUMN, stateOf, STATUS_COLUMN, type ItemState } from "../../model/lifecycle.ts";
import { wallTimeOf } from "../text/time-zone.ts";
import { itemKey } from "../content/versions.ts";
import { trashKey, type TrashedVersion } from "./trash.ts";
import { DEFAULT_CONTENT_LOCALE, parseVersionKey, type ContentLocale } from "../../model/model.ts";

export type PlanAction = "create" | "update" | "unchanged" | "delete" | "conflict" | "skip";

/** One item and what applying the plan does to it. */
export interface PlanEntry {
  kind: ContentKind;
  slug: string;
  /** The language version (decision 0008: a version is identified by kind, slug and locale); absent: `en`. */
  locale?: ContentLocale;
  /** The content file, or null for an item whose file was removed. */
  file: string | null;
  action: PlanAction;
  /** Fields that differ from Appwrite (update, conflict). */
  changes: string[];
  /** Appwrite document id, when the document exists. */
  documentId?: string;
  /** Why a conflict or skip, and what to do about it. */
  reason?: string;
  /**
   * When the push changes the item's state (`status`), from what to what, e.g. published → draft (issue #26
   * item 10: a push that unpublishes a live page says so in the plan); `from` null for a new item. `at`: a
   * scheduled item's time as wall time in the site's zone, `2026-12-01 09:00 Asia/Riyadh` (issue #29).
   */
  state?: { from: ItemState | null; to: ItemState; at?: string };
}

/** A plan entry with its outcome once `push` has tried it (`push.ts`, `push-apply.ts`). */
export interface PushItemResult extends PlanEntry {
  status: "done" | "failed";
  error?: string;
}

/**
 * A planned item with what applying it needs. No closure and no lock record an item (issue #33 item 6: 200,000
 * of these are held until written): a create's fields are rendered at its write (`plannedFields`), its lock
 * entry made then (`plannedLock`).
 */
export interface PlannedItem {
  entry: PlanEntry;
  item: ContentItem | null;
  /** An update's fields as rendered for its diff, kept for its write; null otherwise (see `plannedFields`). */
  rendered: ManagedFields | null;
  /** The image field's value to write (view URL of the bucket file, an external URL, or null). */
  imageUrl: string | null;
  image: LocalImage | null;
  /** The URL written for each local image of the body, by SHA-256 of its bytes (`bodyImageUrls`); null: none. */
  bodyImages: Record<string, string> | null;
  /**
   * A create's body as `bodyHtml` gives it, sanitized on the sanitizer thread ahead of its write
   * (`push-bulk.ts`); absent: `plannedFields` sanitizes it.
   */
  sanitizedBody?: string | null;
  /** The instant (ms) the plan decided the item's state at: the write decides it at the same one. */
  now: number;
  /**
   * `sourceHash` of the item as planned (what its lock entry records); null for a removal, and for an item
   * unchanged on both sides since the lock (its fast path: the lock entry already says so).
   */
  hash: string | null;
  remote: Models.DefaultRow | null;
}

/**
 * The fields a planned create or update writes (rendered and sanitized: the XSS boundary), from its item as
 * loaded for the write, its image's URL and the plan's instant; an update's as rendered for its diff.
 * @throws when the planned item has no item (a removal).
 */
export function plannedFields(p: PlannedItem): ManagedFields {
  if (p.rendered) return p.rendered;
  if (!p.item) throw new Error(`no item to render for ${p.entry.kind} ${p.entry.slug}`);
  return managedFields(p.item, p.imageUrl, p.now, p.bodyImages ?? undefined, p.sanitizedBody ?? undefined);
}

/**
 * What the lock records for a planned item once written (its id, `$updatedAt` and fingerprint come from the
 * row): the source hash, its body's digest, the files it was read from (a push's stub: `push-read.ts`), its
 * image's SHA-256 and URL, its body images' URLs.
 */
export function plannedLock(p: PlannedItem): Omit<LockEntry, "id" | "updatedAt"> {
  const item = p.item!;
  // A push's stub (`push-read.ts`) holds its body's digest, and the files it was read from.
  const stub = "stub" in item ? (item.stub as { body?: string; source?: string | null }) : null;
  return {
    hash: p.hash!,
    body: stub?.body ?? bodyDigest(item.format, item.body),
    ...(stub?.source ? { source: stub.source } : {}),
    ...(p.image && p.imageUrl ? { image: { sha256: sha256Hex(p.image.bytes), url: p.imageUrl } } : {}),
    ...(p.bodyImages ? { bodyImages: p.bodyImages } : {}),
  };
}

/** An entry's `changes` when there are none: one array for all of them (never written to). */
const NO_CHANGES: string[] = [];
/** State changes without a time, one object per pair (`from|to`): 200,000 creates hold a handful. */
const STATES = new Map<string, NonNullable<PlanEntry["state"]>>();
function stateChange(from: ItemState | null, to: ItemState, at?: string): NonNullable<PlanEntry["state"]> {
  if (at) return { from, to, at };
  const key = `${from}|${to}`;
  let state = STATES.get(key);
  if (!state) STATES.set(key, (state = { from, to }));
  return state;
}

export interface PlanInput {
  target: Pick<AppwriteTarget, "endpoint" | "projectId">;
  items: ContentItem[];
  /** Version keys (`versionKey`) of drafts and of invalid files: never pruned. */
  protectedSlugs: Set<string>;
  /** The documents of each kind by version key (`versionKey(slug, locale)`). */
  remote: Record<ContentKind, Map<string, Models.DefaultRow>>;
  lock: ProjectLock;
  force: boolean;
  prune: boolean;
  /**
   * The versions in the site's trash by `trashKey` (issue #29 item 9): a file whose version is there is a
   * conflict whatever `force` says, never created again beside it (its restore would then be refused).
   */
  trashed?: ReadonlyMap<string, Pick<TrashedVersion, "deletedAt" | "deletedBy">>;
  /** The site's time zone (issue #29 item 2), in which the plan names scheduled times; default UTC. */
  timeZone?: string;
  /** `sourceHash` of an item (default: computed); push passes one that remembers what it hashed before. */
  hashOf?: (item: ContentItem) => string;
}

/** A scheduled time as the plan says it: `2026-12-01 09:00 Asia/Riyadh` (wall time in `zone`). */
export function planTime(at: unknown, zone = "UTC"): string | undefined {
  const instant = at instanceof Date || typeof at === "string" ? new Date(at) : null;
  if (!instant || Number.isNaN(instant.getTime())) return undefined;
  return `${wallTimeOf(instant, zone).replace("T", " ")} ${zone}`;
}

/**
 * The hash of an item's source (front matter, body, format, image bytes): equal to the lock's hash when the
 * file did not change since the last push or pull, without rendering anything.
 */
export function sourceHash(item: ContentItem): string {
  const image = localImage(item);
  const frontMatter = Object.fromEntries(
    Object.entries(item.frontMatter).map(([k, v]) => [
      k,
      v instanceof Date ? v.toISOString() : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v),
    ]),
  );
  return contentHash({
    ...frontMatter,
    ...(item.locale === DEFAULT_CONTENT_LOCALE ? {} : { locale: item.locale }),
    slug: item.slug,
    format: item.format,
    body: item.body,
    image: image ? `sha256:${sha256Hex(image.bytes)}` : null,
    // Only with body images, so the hash of every other item stays what earlier versions recorded.
    ...(item.bodyImages?.length
      ? { bodyImages: item.bodyImages.map((b) => `${b.src}=sha256:${sha256Hex(b.image.bytes)}`).join("\n") }
      : {}),
  });
}

/**
 * The media URL of each local image of `item`'s body, by SHA-256 of its bytes: the one `recorded` in the lock
 * for those bytes, else the content-addressed file's (`/media/<imageFileId>`). Null without body images.
 */
export function bodyImageUrls(
  item: ContentItem,
  recorded?: Readonly<Record<string, string>>,
): Record<string, string> | null {
  if (!item.bodyImages?.length) return null;
  return Object.fromEntries(
    item.bodyImages.map((b) => {
      const sha = sha256Hex(b.image.bytes);
      return [sha, recorded?.[sha] ?? mediaPath(imageFileId(b.image.bytes))];
    }),
  );
}

function planItem(input: PlanInput, item: ContentItem): PlannedItem {
  const entry = input.lock[item.kind][itemKey(item)];
  const remote = input.remote[item.kind].get(itemKey(item)) ?? null;
  const image = localImage(item);
  const hash = (input.hashOf ?? sourceHash)(item);
  const base = { kind: item.kind, slug: item.slug, locale: item.locale, file: item.file, changes: NO_CHANGES };
  // One instant for the plan and the write: the state the plan names is the one written.
  const now = Date.now();

  // Fast path: neither side changed since the last sync; nothing to render or compare. The item is kept only
  // when its lock entry learns something from it (`push`: its body's digest, its files' stats).
  if (remote && entry && !remoteChangedSince(item.kind, entry, remote) && entry.hash === hash) {
    // A push's stub (`push-read.ts`) known by its stat teaches nothing; one parsed, or known by its bytes'
    // hash, gives its files' stats (`sourceNow`).
    const stub = "stub" in item ? (item.stub as { by?: string }) : null;
    const teaches = !entry.body || stub?.by !== "stat";
    return {
      entry: { ...base, action: "unchanged", documentId: remote.$id },
      item: teaches ? item : null,
      rendered: null,
      imageUrl: null,
      image: null,
      bodyImages: null,
      now,
      hash: null,
      remote,
    };
  }

  const imageSha = image ? sha256Hex(image.bytes) : null;
  const imageUrl = image
    ? entry?.image?.sha256 === imageSha
      ? entry.image.url
      : fileViewUrl(input.target, IMAGES_BUCKET_ID, imageFileId(image.bytes))
    : item.image && "url" in item.image
      ? item.image.url
      : null;
  const bodyImages = bodyImageUrls(item, entry?.bodyImages);
  const planned: Omit<PlannedItem, "entry"> = { item, rendered: null, imageUrl, image, bodyImages, now, hash, remote };

  const trashed = remote ? undefined : input.trashed?.get(trashKey(item.kind, item.slug, item.locale));
  if (trashed) {
    const when = trashed.deletedAt.slice(0, 10);
    const reason =
      `is in the site's trash (deleted in the admin${trashed.deletedBy ? ` by ${trashed.deletedBy}` : ""} on ${when}); ` +
      "restore it on the admin's Trash page and run `studio pull`, or delete it forever there, then push again";
    return { ...planned, entry: { ...base, action: "conflict", reason } };
  }
  if (!remote) {
    if (entry && !input.force) {
      const reason =
        "was deleted in Appwrite since the last push; delete the file, or push with --force to create it again";
      return { ...planned, entry: { ...base, action: "conflict", reason } };
    }
    const lifecycle = lifecycleFields(item, now);
    const to = lifecycle[STATUS_COLUMN] as ItemState;
    const at = to === "scheduled" ? planTime(lifecycle[PUBLISH_AT_COLUMN], input.timeZone) : undefined;
    return { ...planned, entry: { ...base, action: "create", state: stateChange(null, to, at) } };
  }
  // An update's fields are rendered here, for the diff, and kept for its write.
  const fields = plannedFields({ ...planned, entry: { ...base, action: "update" } });
  planned.rendered = fields;
  const changes = changedFields(fields, remote);
  const to = fields[STATUS_COLUMN] as ItemState;
  const at = to === "scheduled" ? planTime(fields[PUBLISH_AT_COLUMN], input.timeZone) : undefined;
  const moved = changes.includes(STATUS_COLUMN) || (to === "scheduled" && changes.includes(PUBLISH_AT_COLUMN));
  const state = moved ? { state: stateChange(stateOf(remote), to, at) } : {};
  const withRemote = { ...base, changes: changes.length ? changes : NO_CHANGES, documentId: remote.$id, ...state };
  if (changes.length === 0) return { ...planned, rendered: null, entry: { ...withRemote, action: "unchanged" } };
  if (!remoteChangedSince(item.kind, entry, remote) || input.force)
    return { ...planned, entry: { ...withRemote, action: "update" } };
  const reason = entry
    ? "changed in Appwrite since the last push (an edit in the admin?); run `studio pull` to bring it into the file, or push with --force to overwrite it"
    : "exists in Appwrite but was not pushed from these files; run `studio pull` to adopt it, or push with --force to overwrite it";
  return { ...planned, rendered: null, entry: { ...withRemote, action: "conflict", reason } };
}

/** Items the lock says were pushed whose files are gone: deleted only with `prune`, never if edited since. */
function planRemovals(input: PlanInput, kind: ContentKind, present: Set<string>): PlannedItem[] {
  const planned: PlannedItem[] = [];
  for (const [key, entry] of Object.entries(input.lock[kind])) {
    if (present.has(key) || input.protectedSlugs.has(key)) continue;
    const remote = input.remote[kind].get(key);
    if (!remote || remote.$id !== entry.id) continue; // already gone, or another document now: not ours to delete
    const { slug, locale } = parseVersionKey(key);
    const base = { kind, slug, locale, file: null, changes: [], documentId: remote.$id };
    const common = {
      item: null,
      rendered: null,
      imageUrl: null,
      image: null,
      bodyImages: null,
      now: 0,
      hash: null,
      remote,
    };
    if (remoteChangedSince(kind, entry, remote)) {
      const reason = "its file was removed, but it changed in Appwrite since the last push; not deleted";
      planned.push({ ...common, entry: { ...base, action: "conflict", reason } });
    } else if (input.prune) {
      planned.push({ ...common, entry: { ...base, action: "delete" } });
    } else {
      const reason = "its file was removed; pass --prune to delete it from Appwrite";
      planned.push({ ...common, entry: { ...base, action: "skip", reason } });
    }
  }
  return planned;
}

/** The items of each kind, by version key (`versionKey(slug, locale)`). */
export function itemsBySlug(items: readonly ContentItem[]): Record<ContentKind, Map<string, ContentItem>> {
  const byKind = Object.fromEntries(Object.keys(CONTENT_KINDS).map((kind) => [kind, new Map()])) as Record<
    ContentKind,
    Map<string, ContentItem>
  >;
  for (const item of items) byKind[item.kind].set(itemKey(item), item);
  return byKind;
}

/** Plans every item of `input` (pure: reads nothing, writes nothing). */
export function planPush(input: PlanInput): PlannedItem[] {
  const planned = input.items.map((item) => planItem(input, item));
  // The version keys of the files of each kind (a set, not a map of the items: 200,000 of them at issue #33 item 6).
  const present = Object.fromEntries(Object.keys(CONTENT_KINDS).map((kind) => [kind, new Set<string>()])) as Record<
    ContentKind,
    Set<string>
  >;
  for (const item of input.items) present[item.kind].add(itemKey(item));
  for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
    for (const removal of planRemovals(input, kind, present[kind])) planned.push(removal);
  }
  return planned;
}
