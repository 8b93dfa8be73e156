/**
 * The items named on `studio push|pull <file|slug>…` (issue #34), resolved against the content folder and what
 * this Appwrite holds: the lock's items (push: a removed file still names its item) or Appwrite's documents
 * (pull: an item created in the admin has no file yet).
 */
import type { Selection } from "../lib/publish/selection.ts";
import type { CommandContext } from "./context.ts";

/**
 * The selection for `names`, or undefined when none are given (the whole folder).
 * @throws {SelectionError} (exit 2) for a name that matches nothing.
 */
export async function selectionFor(
  context: CommandContext,
  contentDir: string,
  names: readonly string[],
  from: "lock" | "appwrite",
): Promise<Selection | undefined> {
  if (names.length === 0) return undefined;
  const [{ readContent }, { resolveSelection }, { CONTENT_KIND_NAMES, CONTENT_MODEL, parseVersionKey }] =
    await Promise.all([
      import("../lib/content/read.ts"),
      import("../lib/publish/selection.ts"),
      import("../model/model.ts"),
    ]);
  const content = await readContent(contentDir);
  const known: { kind: (typeof CONTENT_KIND_NAMES)[number]; slug: string }[] = [];
  if (from === "lock") {
    const { projectLock, readLock } = await import("../lib/publish/lock.ts");
    const project = projectLock(await readLock(context.lockPath(contentDir)), context.services.target.projectId);
    for (const kind of CONTENT_KIND_NAMES) {
      for (const key of Object.keys(project[kind])) known.push({ kind, slug: parseVersionKey(key).slug });
    }
  } else {
    const { listBySlug } = await import("../lib/publish/remote.ts");
    for (const kind of CONTENT_KIND_NAMES) {
      for (const doc of (await listBySlug(context.services, CONTENT_MODEL[kind].collectionId)).values()) {
        if (typeof doc.slug === "string") known.push({ kind, slug: doc.slug });
      }
    }
  }
  return resolveSelection(contentDir, names, content, known);
}
