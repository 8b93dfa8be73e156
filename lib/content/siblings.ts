/**
 * The language versions of one content file (decision 0008: `posts/x.md` and `posts/x.ar.md` are one item),
 * read without the rest of the folder: what `studio preview` shows and stages (issue #34: previewing `x.md`
 * showed English under `/ar` although `x.ar.md` existed; an Arabic file alone lacked what it inherits).
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { CONTENT_FILE_EXTENSIONS, contentFileFormat } from "../../model/content.ts";
import { CONTENT_LOCALES, DEFAULT_CONTENT_LOCALE, type ContentKind } from "../../model/model.ts";
import { readItem, type ContentItem } from "./read.ts";
import { inheritFields, localeOfFile, versionFile } from "./versions.ts";

/**
 * Every valid version of the item `file` belongs to (the file's own included when valid), each completed
 * with what it inherits from the default locale's version (`inheritFields`), default locale first. A sibling
 * is any `<stem>[.<locale>].<md|markdown|html|htm>` beside `file`; invalid siblings are left out.
 * `file` is a path from the current folder; items' `file` is shown relative to the current folder too.
 * @throws only for I/O errors of files that exist.
 */
export async function versionsOf(kind: ContentKind, file: string): Promise<ContentItem[]> {
  const absolute = path.resolve(file);
  const { stem } = localeOfFile(absolute);
  const found: ContentItem[] = [];
  for (const locale of CONTENT_LOCALES) {
    for (const extension of CONTENT_FILE_EXTENSIONS) {
      const candidate = versionFile(path.join(path.dirname(absolute), `${stem}${extension}`), locale, extension);
      const isFile = await stat(candidate).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!isFile) continue;
      const read = await readItem(
        kind,
        candidate,
        path.relative(process.cwd(), candidate),
        contentFileFormat(candidate)!,
      );
      if ("item" in read) found.push(read.item);
      break; // one file per locale: the first extension found, as `studio` reads a folder
    }
  }
  const ordered = [
    ...found.filter((i) => i.locale === DEFAULT_CONTENT_LOCALE),
    ...found.filter((i) => i.locale !== DEFAULT_CONTENT_LOCALE),
  ];
  return inheritFields(ordered, []);
}
