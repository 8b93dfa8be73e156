/**
 * `pathInside` (SECURITY C63): inside the folder as written and once links are followed; real temp folders.
 */
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { isWithin, OutsideFolderError, pathInside } from "../../lib/content/inside.ts";

let root: string;
let folder: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "inside-"));
  folder = path.join(root, "content");
  outside = path.join(root, "outside");
  await mkdir(path.join(folder, "images"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.png"), "x");
});

const refusal = (target: string) =>
  pathInside(folder, target).then(
    () => "inside",
    (error: unknown) => (error instanceof OutsideFolderError ? error.how : String(error)),
  );

describe("pathInside", () => {
  it("accepts paths below the folder, existing or not, including names that start with two dots", async () => {
    expect(await pathInside(folder, "images/new.png")).toBe(path.join(folder, "images", "new.png"));
    expect(await refusal("posts/not-yet/x.html")).toBe("inside");
    expect(await refusal("..x.png")).toBe("inside");
  });

  it("refuses paths written to climb out, absolute paths elsewhere and the folder itself", async () => {
    expect(await refusal("../outside/secret.png")).toBe("path");
    expect(await refusal("posts/../../outside/x")).toBe("path");
    expect(await refusal(path.join(outside, "secret.png"))).toBe("path");
    expect(await refusal(".")).toBe("path");
  });

  it("follows links: to a file or folder outside is refused, to a file inside is accepted, a dangling one refused", async () => {
    await symlink(path.join(outside, "secret.png"), path.join(folder, "images", "leak.png"));
    await symlink(outside, path.join(folder, "elsewhere"));
    await writeFile(path.join(folder, "images", "real.png"), "y");
    await symlink(path.join(folder, "images", "real.png"), path.join(folder, "images", "alias.png"));
    await symlink(path.join(outside, "missing.png"), path.join(folder, "images", "dangling.png"));

    expect(await refusal("images/leak.png")).toBe("link");
    expect(await refusal("elsewhere/new.html")).toBe("link");
    expect(await refusal("images/alias.png")).toBe("inside");
    expect(await refusal("images/dangling.png")).toBe("link");
  });

  it("accepts a content folder that is itself reached through a link", async () => {
    const linked = path.join(root, "linked-content");
    await symlink(folder, linked);
    await expect(pathInside(linked, "images/new.png")).resolves.toBe(path.join(linked, "images", "new.png"));
  });
});

describe("isWithin", () => {
  it("compares resolved paths by segment", () => {
    expect(isWithin("/a/b", "/a/b")).toBe(true);
    expect(isWithin("/a/b", "/a/b/..c")).toBe(true);
    expect(isWithin("/a/b", "/a/bc")).toBe(false);
    expect(isWithin("/a/b", "/a")).toBe(false);
  });
});
