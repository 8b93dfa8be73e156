/**
 * Identifying a content file's body that already passed the body bounds, so that `readContent` need not render
 * it again (issue #33 item 5: a re-push of unchanged files renders nothing).
 */
import { createHash } from "node:crypto";
import type { ContentItem } from "./item.ts";

/** What `readContent` may skip: set by `studio push` from its lock (issue #33 item 5). */
export interface ReadContentOptions {
  /**
   * `bodyDigest`s of bodies that already passed the body bounds (`bodyBoundViolation`) when they were last
   * pushed: a file whose body is one of them is not rendered again to check them (the bounds are a property of
   * the text alone). Every other check (front matter, slug, image, removed HTML warnings) still runs.
   */
  checkedBodies?: ReadonlySet<string>;
  /** `readItem` also returns `bytes`: the SHA-256 hex of the file's bytes as read (`studio push`'s lock). */
  digestBytes?: boolean;
  /**
   * Only the front matter and the image are checked (the body's bounds, removed HTML and images are not): for a
   * file read again for the fields another version inherits from it (`studio push`'s write, `push-read.ts`).
   */
  frontMatterOnly?: boolean;
  /**
   * The body is not rendered to check its bounds: the caller compares what it reads with an item whose body
   * passed them (`studio push`'s write reading a file again, refused when its source hash changed).
   */
  boundsChecked?: boolean;
  /**
   * Read the file synchronously: one file read again on its own (`studio push`'s write), where a read through
   * libuv's thread pool costs ~15× a small file's `readFileSync` (issue #33 item 6).
   */
  readSync?: boolean;
}

/** SHA-256 of `bytes` as 64 hex digits: what the lock, the exports and the content-addressed ids record of a file. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The digest identifying a body for `ReadContentOptions.checkedBodies`: SHA-256 hex of the format, a NUL and
 * the body text (as `ContentItem.body`, trimmed).
 */
export function bodyDigest(format: ContentItem["format"], body: string): string {
  return createHash("sha256").update(format).update("\0").update(body).digest("hex");
}
