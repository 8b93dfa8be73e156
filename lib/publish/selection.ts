/**
 * `studio push|pull <file|slug>…` (issue #34): the items named on the command line. An item is a kind and a
 * slug, so naming one language version (`posts/x.ar.md`) or the slug (`x`) selects both versions; the plan,
 * conflict and export rules are the same as for a whole folder, applied to those items only.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { contentFileFormat } from "../../model/content.ts";
import { CONTENT_KIND_NAMES, CONTENT_MODEL, type ContentKind } from "../../model/model.ts";
import type { ContentIssue, ContentItem, ContentSet } from "../content/read.ts";
import { localeOfFile } from "../content/versions.ts";
import { AbortError, EXIT } from "../errors.ts";

/** The items named: `selectionKey(kind, slug)` of each. */
export type Selection = ReadonlySet<string>;

/** The key of an item (both its language versions) in a `Selection`. */
export function selectionKey(kind: ContentKind, slug: string): string {
  return `${kind}:${slug}`;
}

/** A name on the command line that matches no item; exit 2. */
export class SelectionError extends AbortError {
  override name = "SelectionError";
  constructor(message: string) {
    super(message, {
      exitCode: EXIT.usage,
      nextSteps:
        "Name a content file (content/posts/x.md, posts/x.ar.md) or a slug (x); run `studio status` to list them.",
    });
  }
}

/** The kind whose folder is `folder` (the kinds table), or null. */
function kindOfFolder(folder: string): ContentKind | null {
  return CONTENT_KIND_NAMES.find((kind) => CONTENT_MODEL[kind].folder === folder) ?? null;
}

/**
 * Resolves `names` against the content folder: a name ending in `.md`/`.html` is a file (from the current
 * folder, else from `contentDir`; a removed file still names its item by folder and stem), anything else a
 * slug of any kind, among the files and `known` (items the lock or Appwrite hold, e.g. removed files).
 * @throws {SelectionError} naming each name that matches nothing.
 */
export function resolveSelection(
  contentDir: string,
  names: readonly string[],
  content: Pick<ContentSet, "items" | "issues">,
  known: readonly { kind: ContentKind; slug: string }[] = [],
): Selection {
  const selected = new Set<string>();
  const unknown: string[] = [];
  const root = path.resolve(contentDir);
  for (const name of names) {
    if (contentFileFormat(name)) {
      const fromCwd = path.resolve(name);
      const absolute =
        existsSync(fromCwd) || !existsSync(path.resolve(root, name)) ? fromCwd : path.resolve(root, name);
      const relative = path.relative(root, absolute).split(path.sep).join("/");
      const item = content.items.find((i) => i.file === relative);
      const kind = item?.kind ?? kindOfFolder(path.basename(path.dirname(absolute)));
      if (!kind || relative.startsWith("..")) {
        unknown.push(`${name} (not a file in ${contentDir}/ventures or ${contentDir}/posts)`);
        continue;
      }
      selected.add(selectionKey(kind, item?.slug ?? localeOfFile(absolute).stem));
      continue;
    }
    const matches = [
      ...content.items.filter((i) => i.slug === name),
      ...content.issues.flatMap((i) => issueItem(i)).filter((i) => i.slug === name),
      ...known.filter((k) => k.slug === name),
    ];
    if (matches.length === 0) unknown.push(`${name} (no venture or post has this slug)`);
    for (const m of matches) selected.add(selectionKey(m.kind, m.slug));
  }
  if (unknown.length > 0) throw new SelectionError(`Nothing to act on for: ${unknown.join("; ")}.`);
  return selected;
}

/** The item an invalid file would be, from its folder and name. */
function issueItem(issue: ContentIssue): { kind: ContentKind; slug: string }[] {
  const [folder] = issue.file.split("/");
  const kind = folder ? kindOfFolder(folder) : null;
  return kind ? [{ kind, slug: localeOfFile(issue.file).stem }] : [];
}

/** `content` narrowed to the selected items: their versions, and the problems of their files only. */
export function selectContent<T extends Pick<ContentSet, "items" | "issues">>(content: T, only?: Selection): T {
  if (!only) return content;
  return {
    ...content,
    items: content.items.filter((i: ContentItem) => only.has(selectionKey(i.kind, i.slug))),
    issues: content.issues.filter((i) => issueItem(i).some((it) => only.has(selectionKey(it.kind, it.slug)))),
  };
}

/** Whether an entry (`kind`, `slug`) is selected; everything is when there is no selection. */
export function isSelected(only: Selection | undefined, kind: ContentKind, slug: string): boolean {
  return !only || only.has(selectionKey(kind, slug));
}

/** The planned items of the selection (all without one), removals of selected items included. */
export function selectPlanned<T extends { entry: { kind: ContentKind; slug: string } }>(
  only: Selection | undefined,
  planned: T[],
): T[] {
  return only ? planned.filter((p) => isSelected(only, p.entry.kind, p.entry.slug)) : planned;
}
