/**
 * Screenshots compared with committed baselines (issue #35): `tests/e2e/baselines/<name>.png`, the viewport
 * of a page as a reader first sees it. Compared pixel by pixel with `pixelmatch` (per-pixel colour threshold
 * 0.1, anti-aliased pixels ignored); a screenshot passes when at most `MAX_DIFFERENT` of its pixels differ, so
 * glyph rasterization noise passes and a moved block, a changed font or a flipped alignment fails.
 *
 * Updating: `UPDATE_BASELINES=1 npx vitest run --config vitest.e2e.config.ts tests/e2e/arabic-reader.test.ts`
 * writes every screenshot as the new baseline (review the PNGs before committing them). A missing baseline
 * fails the test, saying so. On a mismatch the screenshot and a diff image go to `test-output/screenshots/`.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import type { Page } from "playwright-core";
import { ROOT, SCREENSHOTS } from "./helpers.ts";

export const BASELINES = path.join(ROOT, "tests", "e2e", "baselines");
/** Share of a screenshot's pixels that may differ from its baseline: 0.5 %. */
export const MAX_DIFFERENT = 0.005;

/**
 * Takes `page`'s viewport screenshot and compares it with the baseline `name`.png (or writes it, with
 * UPDATE_BASELINES=1). Throws with the differing share and the paths of the screenshot and the diff image.
 */
export async function compareWithBaseline(page: Page, name: string): Promise<void> {
  const shot = await page.screenshot({ animations: "disabled", caret: "hide" });
  const file = path.join(BASELINES, `${name}.png`);
  if (process.env.UPDATE_BASELINES === "1") {
    await mkdir(BASELINES, { recursive: true });
    await writeFile(file, shot);
    return;
  }
  const stored = await readFile(file).catch(() => null);
  if (!stored) {
    throw new Error(`No baseline ${path.relative(ROOT, file)}: run the test with UPDATE_BASELINES=1 and commit it.`);
  }
  const [actual, expected] = [PNG.sync.read(shot), PNG.sync.read(stored)];
  await mkdir(SCREENSHOTS, { recursive: true });
  const saved = path.join(SCREENSHOTS, `${name}.actual.png`);
  if (actual.width !== expected.width || actual.height !== expected.height) {
    await writeFile(saved, shot);
    throw new Error(
      `${name}: ${actual.width}×${actual.height} against the baseline's ${expected.width}×${expected.height} (${saved})`,
    );
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const different = pixelmatch(actual.data, expected.data, diff.data, actual.width, actual.height, { threshold: 0.1 });
  const share = different / (actual.width * actual.height);
  if (share > MAX_DIFFERENT) {
    const diffFile = path.join(SCREENSHOTS, `${name}.diff.png`);
    await writeFile(saved, shot);
    await writeFile(diffFile, PNG.sync.write(diff));
    throw new Error(
      `${name}: ${(share * 100).toFixed(2)} % of the pixels differ from ${path.relative(ROOT, file)} (at most ${MAX_DIFFERENT * 100} %); see ${saved} and ${diffFile}. If the change is meant, rerun with UPDATE_BASELINES=1.`,
    );
  }
}
