import { describe, expect, it } from "vitest";
import routes from "../../web/routes.ts";
import { adminKindOf, publicKindOf } from "../../web/kind-route.ts";
import { navOf } from "../../web/components/nav.ts";
import { contentKindSchema, contentLocaleSchema } from "../../model/content.ts";
import {
  CONTENT_KIND_NAMES,
  CONTENT_MODEL,
  descriptionField,
  kindFolders,
  type ContentKindSpec,
} from "../../model/model.ts";
import { SYSTEM_INSTRUCTIONS } from "../../lib/ai/draft.ts";
import { imagePrompt } from "../../lib/ai/image.ts";
import { DRAFT_RESPONSE_SCHEMAS } from "../../model/ai.ts";

interface RouteEntry {
  id?: string;
  path?: string;
  file: string;
  children?: RouteEntry[];
}

/** The `path`s and files of the children of the route at `path` (`:locale`, `admin`). */
function childrenOf(path: string): Map<string, RouteEntry> {
  const parent = (routes as RouteEntry[]).find((r) => r.path === path)!;
  return new Map((parent.children ?? []).filter((r) => r.path).map((r) => [r.path!, r]));
}

describe("kinds are a table the code iterates (issue #27 item 1)", () => {
  it("mounts each kind's public and admin pages at today's URLs, from the kind's entry", () => {
    const pub = childrenOf(":locale");
    const admin = childrenOf("admin");
    for (const kind of CONTENT_KIND_NAMES) {
      const { publicPath, adminPath, views }: ContentKindSpec = CONTENT_MODEL[kind];
      const form = views?.form ?? "routes/admin/kind-form.tsx";
      expect(pub.get(publicPath)?.file).toBe(views?.list ?? "routes/public/kind-list.tsx");
      expect(pub.get(`${publicPath}/:slug`)?.file).toBe(views?.item ?? "routes/public/kind-item.tsx");
      expect(admin.get(adminPath)?.file).toBe("routes/admin/items.tsx");
      expect(admin.get(`${adminPath}/new`)?.file).toBe(form);
      expect(admin.get(`${adminPath}/edit/:id`)?.file).toBe(form);
    }
    // The URLs as they were before the table drove them.
    for (const path of ["ventures", "ventures/:slug", "blog", "blog/:slug"]) expect(pub.has(path), path).toBe(true);
    for (const path of ["ventures", "ventures/new", "ventures/edit/:id", "blog", "blog/new", "blog/edit/:id"]) {
      expect(admin.has(path), path).toBe(true);
    }
    // A shared module mounted for several kinds has one route id per kind.
    // (Routes without an explicit id, such as the account, inbox and team pages, get theirs from their file.)
    const ids = [...admin.values()].flatMap((r) => (r.id ? [r.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("finds a shared module's kind from the URL's path, and refuses a path of no kind", () => {
    expect(adminKindOf("http://x/admin/blog/edit/abc")).toBe("post");
    expect(adminKindOf("/admin/ventures")).toBe("venture");
    expect(publicKindOf("/ar/blog/some-post?preview=1")).toBe("post");
    expect(publicKindOf("/en/ventures")).toBe("venture");
    expect(() => adminKindOf("/admin/account")).toThrow(/No content kind/);
    expect(() => publicKindOf("/en/about")).toThrow(/No content kind/);
  });

  it("parses a kind or a locale with z.enum of the table: an unknown one is an error, never a default", () => {
    expect(contentKindSchema.parse("venture")).toBe("venture");
    expect(contentKindSchema.parse("post")).toBe("post");
    for (const bad of ["event", "blog", "", "Venture", null]) {
      const result = contentKindSchema.safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("kind must be one of venture, post");
    }
    expect(contentLocaleSchema.safeParse("fr").success).toBe(false);
    expect(contentLocaleSchema.parse("ar")).toBe("ar");
  });

  it("puts the kinds' lists in the navigation where spec §2 has them", () => {
    const lists = CONTENT_KIND_NAMES.map((kind) => CONTENT_MODEL[kind].publicPath);
    expect(navOf(lists).map((item) => item.path)).toEqual([
      "",
      "/about",
      "/services",
      "/ventures",
      "/blog",
      "/community",
      "/partner",
      "/contact",
    ]);
  });

  it("reads AI prompts, response schemas and messages off each kind's entry", () => {
    expect(SYSTEM_INSTRUCTIONS.venture).toMatch(/^You are a business strategist at a venture studio/);
    expect(SYSTEM_INSTRUCTIONS.venture).toMatch(
      /The Problem, Our Solution and The Market Opportunity, in that order\.$/,
    );
    expect(SYSTEM_INSTRUCTIONS.post).toMatch(/^You are a content writer for a venture studio/);
    expect(SYSTEM_INSTRUCTIONS.post).toMatch(/The slug is lowercase ASCII words joined by hyphens\.$/);
    expect(imagePrompt("post", "A $& title")).toBe(
      'An abstract, minimalist illustration for a blog post titled "A $& title". Dark palette with gold accents, ' +
        "clean geometric shapes, soft light, no text, no letters, no people.",
    );
    expect(DRAFT_RESPONSE_SCHEMAS.venture.required).toEqual(["name", "slug", "shortDescription", "caseStudy"]);
    expect(DRAFT_RESPONSE_SCHEMAS.post.required).toEqual(["title", "slug", "excerpt", "content"]);
    expect(descriptionField("venture")).toBe("shortDescription");
    expect(descriptionField("post")).toBe("excerpt");
    expect(kindFolders("or")).toBe("ventures/ or posts/");
    expect(kindFolders("and", "content/", false)).toBe("content/ventures and content/posts");
  });
});
