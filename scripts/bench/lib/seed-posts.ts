/**
 * Many published posts, fast, for scale tests and the scale bench (issue #18 item 3): TablesDB bulk
 * `createRows` (100 rows a request, Appwrite's `APP_LIMIT_DATABASE_BATCH`) with the API key, each row readable
 * by anyone as a published post is (decision 0009), its fields from the model's placeholders
 * (`placeholderDocument`).
 */
import { ID, Permission, Role } from "node-appwrite";
import type { AdminServices } from "../../../lib/appwrite/client.ts";
import { DATABASE_ID } from "../../../model/content.ts";
import { CONTENT_MODEL, placeholderDocument, type ContentLocale } from "../../../model/model.ts";

/** One language version to write. */
export interface SeedPost {
  slug: string;
  locale: ContentLocale;
  title: string;
  /** ISO date-time with offset, e.g. `2031-01-01T00:00:00.000+00:00`. */
  publishedDate: string;
}

const BATCH = 100;

/**
 * `count` posts `<prefix>-00001`…, newest first: post i is published `i` minutes before `newest`; the first
 * `bilingual` of them also have an Arabic version (title `<title> (ar)` in Arabic words).
 */
export function generatePosts(
  count: number,
  options: { prefix?: string; newest?: Date; bilingual?: number } = {},
): SeedPost[] {
  const prefix = options.prefix ?? "scale-post";
  const newest = (options.newest ?? new Date("2031-01-01T00:00:00Z")).getTime();
  const posts: SeedPost[] = [];
  for (let i = 0; i < count; i++) {
    const slug = `${prefix}-${String(i + 1).padStart(5, "0")}`;
    const publishedDate = new Date(newest - i * 60_000).toISOString().replace("Z", "+00:00");
    posts.push({ slug, locale: "en", title: `Scale post ${i + 1}`, publishedDate });
    if (i < (options.bilingual ?? 0)) posts.push({ slug, locale: "ar", title: `مقال رقم ${i + 1}`, publishedDate });
  }
  return posts;
}

/**
 * Writes `posts` as public rows of the posts table, `concurrency` bulk requests at a time.
 * @throws {AppwriteException} when a batch fails (e.g. a slug and locale already stored).
 */
export async function seedPosts(
  services: Pick<AdminServices, "tablesDB">,
  posts: readonly SeedPost[],
  concurrency = 4,
): Promise<void> {
  const batches: SeedPost[][] = [];
  for (let i = 0; i < posts.length; i += BATCH) batches.push(posts.slice(i, i + BATCH));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      await services.tablesDB.createRows({
        databaseId: DATABASE_ID,
        tableId: CONTENT_MODEL.post.collectionId,
        rows: batch.map((p) => ({
          $id: ID.unique(),
          $permissions: [Permission.read(Role.any())],
          ...placeholderDocument("post", {
            ...p,
            excerpt: `${p.title}: what it is about.`,
            content: `<h2>${p.title}</h2><p>${p.title}.</p>`,
          }),
        })),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
}
