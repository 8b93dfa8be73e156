/**
 * Issue #30 item 4 on the site: a post pushed from a Markdown file whose body shows a local image is served
 * with that image from the site's own media route (the production build, over real HTTP).
 */
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageFileId } from "../../lib/publish/documents.ts";
import { push } from "../../lib/publish/push.ts";
import { startSiteStack, type SiteStack } from "../helpers/site.ts";
import { FIXTURE_CONTENT } from "../helpers/stack.ts";

let stack: SiteStack;
beforeAll(async () => {
  stack = await startSiteStack();
});
afterAll(async () => stack?.close());

describe("a body image pushed from a file (issue #30 item 4)", () => {
  it("is on the public page as /media/<id>, and the media route serves its bytes", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "body-image-site-"));
    await mkdir(path.join(dir, "posts"), { recursive: true });
    await mkdir(path.join(dir, "images"), { recursive: true });
    const bytes = await readFile(path.join(FIXTURE_CONTENT, "images/hello-cover.png"));
    await writeFile(path.join(dir, "images/inline.png"), bytes);
    await writeFile(
      path.join(dir, "posts/inline-picture.md"),
      "---\ntitle: Inline Picture\nexcerpt: A body image.\nauthorName: Test\npublishedDate: 2001-01-01\n---\n\n## Seen\n\n![A picture](../images/inline.png)\n",
    );
    expect(await push(stack.backend.services, { contentDir: dir })).toMatchObject({ created: 1, failed: 0 });

    const src = `/media/${imageFileId(bytes)}`;
    const img = new RegExp(`<img[^>]*src="${src}"[^>]*alt="A picture"|<img[^>]*alt="A picture"[^>]*src="${src}"`);
    // A sanitizer still starting shows a body as text once ("the HTML on a later request", lib/html/body.ts).
    await expect
      .poll(async () => (await fetch(`${stack.site.url}/en/blog/inline-picture`)).text(), {
        timeout: 20_000,
        interval: 200,
      })
      .toMatch(img);
    const media = await fetch(`${stack.site.url}${src}`);
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer())).toEqual(bytes);
  });
});
