/**
 * Which kind a shared route module serves (issue #27 item 1): `web/routes.ts` mounts the same list, item and
 * form modules once per kind of the content model, under the kind's `publicPath` or `adminPath`; the module
 * reads its kind off the URL's path, so one module serves every kind and a new kind needs no new module.
 */
import { kindOfAdminPath, kindOfPublicPath, type ContentKind } from "../model/model.ts";

/** The path of `url` (a `Request`'s URL, a full URL, or a path). */
function pathOf(url: string): string {
  return new URL(url, "http://localhost").pathname;
}

/**
 * The kind of an admin page `/admin/<adminPath>[/…]` (`/admin/blog/new` → `post`).
 * @throws Error when the path names no kind: the route table mounts these modules only under kinds' paths.
 */
export function adminKindOf(url: string): ContentKind {
  const kind = kindOfAdminPath(pathOf(url).split("/")[2] ?? "");
  if (!kind) throw new Error(`No content kind is mounted at ${pathOf(url)}`);
  return kind;
}

/**
 * The kind of a public page `/<locale>/<publicPath>[/<slug>]` (`/en/blog/x` → `post`).
 * @throws Error when the path names no kind, as `adminKindOf`.
 */
export function publicKindOf(url: string): ContentKind {
  const kind = kindOfPublicPath(pathOf(url).split("/")[2] ?? "");
  if (!kind) throw new Error(`No content kind is mounted at ${pathOf(url)}`);
  return kind;
}
