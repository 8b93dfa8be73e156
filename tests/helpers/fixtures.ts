import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURE_CONTENT = path.join(ROOT, "tests/fixtures/content");

/** Copies the fixture content into a temporary folder a test may change. */
export async function copyFixtureContent(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "studio-content-"));
  await cp(FIXTURE_CONTENT, dir, { recursive: true });
  return dir;
}
