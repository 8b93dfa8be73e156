/**
 * JavaScript per public route (issue #8): for each public page, the files a first visit loads (the entry
 * client, and the module and static imports of every route from the root to the page, as `<Scripts>` links
 * them; with lazy route discovery the page's part of the manifest is inline in the HTML, not counted here), their raw size and their gzip size (zlib level 9, each file compressed on its own
 * as a server sends it). Target: ≤ 130 kB gzip per route (kB = 1,000 bytes). Also checks that no admin-only
 * module (admin routes and components, `server/admin`, Prettier) is in a public route's chunks.
 *
 * The admin (issue #33 item 8), per admin page: the same count, against a budget (gzip): ≤ 135 kB for the
 * dashboard and the lists (React, React DOM and React Router are 112 kB of it), ≤ 180 kB for the account page
 * (it loads the forms' field and zod chunks today), ≤ 300 kB for the four editor pages (new/edit venture and
 * post): 184 kB today, with ~120 kB of room for a rich editor (the writing-surface work). The editor must be
 * loaded by those pages only: a list or the dashboard over its budget means an editor-sized import reached a
 * shared module (the admin layout, a component every page uses). Also printed: what the editor pages load that
 * no other admin page does.
 *
 * The visual editor (issue #30 item 1) is not in any page's first visit: the edit pages import it after they run
 * (the HTML textarea first, upgraded). Its chunk is measured on its own against ≤ 170 kB gzip: Tiptap's core,
 * ProseMirror (model, view, state, transform, commands, input rules, history, lists), prosemirror-tables and
 * linkifyjs are ~154 kB gzip (~130 kB brotli) of it at Tiptap 3.32; the budget leaves room for a small
 * extension, not for a second editor or a Markdown parser. A public page or a list holding it fails above.
 *
 * Measures `build/`, rebuilt first when a source changed (as `npm start` does). Exits 1 when a route is over
 * the target or holds admin-only code.
 *
 * Run: `npx tsx scripts/bench/js-size.ts`
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { ensureBuild } from "../../server/build.ts";
import {
  adminModulesIn,
  adminRouteBundles,
  publicRouteBundles,
  readChunkModules,
  readClientManifest,
} from "./lib/client-bundle.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const buildDir = path.join(root, "build");
const TARGET_GZIP_BYTES = 130_000;
/** Budgets of the admin pages in gzip bytes (issue #33 item 8; the reasons are in the header). */
const ADMIN_BUDGET_BYTES = 135_000;
const ACCOUNT_BUDGET_BYTES = 180_000;
const EDITOR_BUDGET_BYTES = 300_000;
const EDITOR_ROUTE = /^admin-(venture|post)-(new|edit)$/;
/** The visual editor's lazily loaded chunk (see the header), gzip bytes; found by its source modules. */
const VISUAL_EDITOR_BUDGET_BYTES = 170_000;
const VISUAL_EDITOR_MODULE = "web/components/admin/visual-editor/";

/** The budget of an admin page by its route id. */
function adminBudget(id: string): number {
  if (EDITOR_ROUTE.test(id)) return EDITOR_BUDGET_BYTES;
  return id === "routes/admin/account" ? ACCOUNT_BUDGET_BYTES : ADMIN_BUDGET_BYTES;
}
const GZIP_LEVEL = 9;

const kB = (bytes: number) => (bytes / 1000).toFixed(1);

async function main(): Promise<void> {
  if (await ensureBuild(root, { quiet: true })) console.log("Built the site.");
  const { manifest, lazy } = await readClientManifest(buildDir);
  const chunkModules = await readChunkModules(buildDir);
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = async (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = await readFile(path.join(buildDir, "client", file));
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: GZIP_LEVEL }).length };
      sizes.set(file, size);
    }
    return size;
  };

  let failed = false;
  console.log(
    `JavaScript loaded on a first visit, per public route (gzip: zlib level ${GZIP_LEVEL}; kB = 1,000 bytes)`,
  );
  console.log(
    `${"route".padEnd(30)} ${"files".padStart(5)} ${"raw kB".padStart(8)} ${"gzip kB".padStart(8)}  target ≤ 130 kB gzip`,
  );
  const bundles = publicRouteBundles(manifest, lazy);
  for (const bundle of bundles) {
    const stale = bundle.files.filter((file) => file !== manifest.url.slice(1) && !(file in chunkModules));
    if (stale.length) throw new Error(`build/client-modules.json does not list ${stale.join(", ")}: run npm run build`);
    const fileSizes = await Promise.all(bundle.files.map(sizeOf));
    const raw = fileSizes.reduce((sum, s) => sum + s.raw, 0);
    const gzip = fileSizes.reduce((sum, s) => sum + s.gzip, 0);
    const ok = gzip <= TARGET_GZIP_BYTES;
    failed ||= !ok;
    console.log(
      `${bundle.pattern.padEnd(30)} ${String(bundle.files.length).padStart(5)} ${kB(raw).padStart(8)} ${kB(gzip).padStart(8)}  ${ok ? "ok" : "OVER"}`,
    );
  }

  const shared = bundles.map((b) => new Set(b.files)).reduce((a, b) => new Set([...a].filter((f) => b.has(f))));
  const largest = [...shared]
    .map((file) => ({ file, ...sizes.get(file)! }))
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 6);
  console.log(`\nLargest files every public route loads (gzip kB):`);
  for (const f of largest)
    console.log(`  ${kB(f.gzip).padStart(6)}  ${f.file}  (source modules: ${chunkModules[f.file]?.length ?? 0})`);

  const admin = bundles.flatMap((bundle) =>
    adminModulesIn(bundle.files, chunkModules).map((hit) => ({ route: bundle.pattern, ...hit })),
  );
  if (admin.length) {
    failed = true;
    console.log(`\nAdmin-only code in public routes' chunks (FAIL):`);
    for (const hit of admin) console.log(`  ${hit.route}: ${hit.module} in ${hit.file}`);
  } else {
    console.log(`\nAdmin-only code (admin routes/components, server/admin, prettier) in public chunks: none (ok)`);
  }
  failed = (await adminTable(manifest, lazy, sizeOf)) || failed;
  failed = (await visualEditorTable(chunkModules, sizeOf)) || failed;
  if (failed) process.exitCode = 1;
}

/** Prints the admin pages' JavaScript against their budgets; true when one is over. */
async function adminTable(
  manifest: Awaited<ReturnType<typeof readClientManifest>>["manifest"],
  lazy: boolean,
  sizeOf: (file: string) => Promise<{ raw: number; gzip: number }>,
): Promise<boolean> {
  let failed = false;
  const bundles = adminRouteBundles(manifest, lazy);
  console.log(
    `\nJavaScript loaded on a first visit, per admin page (budgets, gzip: ${kB(ADMIN_BUDGET_BYTES)} kB, account ` +
      `${kB(ACCOUNT_BUDGET_BYTES)} kB, editor pages ${kB(EDITOR_BUDGET_BYTES)} kB)`,
  );
  console.log(
    `${"route id".padEnd(22)} ${"pattern".padEnd(28)} ${"files".padStart(5)} ${"raw kB".padStart(8)} ${"gzip kB".padStart(8)}  budget`,
  );
  for (const bundle of bundles) {
    const sizes = await Promise.all(bundle.files.map(sizeOf));
    const raw = sizes.reduce((sum, s) => sum + s.raw, 0);
    const gzip = sizes.reduce((sum, s) => sum + s.gzip, 0);
    const budget = adminBudget(bundle.id);
    const ok = gzip <= budget;
    failed ||= !ok;
    console.log(
      `${bundle.id.replace(/^routes\//, "").padEnd(22)} ${bundle.pattern.padEnd(28)} ${String(bundle.files.length).padStart(5)} ${kB(raw).padStart(8)} ${kB(gzip).padStart(8)}  ≤ ${kB(budget)} ${ok ? "ok" : "OVER"}`,
    );
  }
  const others = new Set(bundles.filter((b) => !EDITOR_ROUTE.test(b.id)).flatMap((b) => b.files));
  const editorOnly = [...new Set(bundles.filter((b) => EDITOR_ROUTE.test(b.id)).flatMap((b) => b.files))].filter(
    (file) => !others.has(file),
  );
  const editorSizes = await Promise.all(editorOnly.map(sizeOf));
  console.log(
    `Loaded by the editor pages only: ${editorOnly.length} file(s), ${kB(editorSizes.reduce((s, x) => s + x.gzip, 0))} kB gzip (${editorOnly.join(", ") || "none"})`,
  );
  return failed;
}

/** Prints the visual editor's chunk(s) against its budget; true when over, or when no chunk holds it. */
async function visualEditorTable(
  chunkModules: Record<string, string[]>,
  sizeOf: (file: string) => Promise<{ raw: number; gzip: number }>,
): Promise<boolean> {
  const files = Object.keys(chunkModules).filter((file) =>
    chunkModules[file]!.some((module) => module.startsWith(VISUAL_EDITOR_MODULE)),
  );
  const sizes = await Promise.all(files.map(sizeOf));
  const raw = sizes.reduce((sum, s) => sum + s.raw, 0);
  const gzip = sizes.reduce((sum, s) => sum + s.gzip, 0);
  const ok = files.length > 0 && gzip <= VISUAL_EDITOR_BUDGET_BYTES;
  console.log(
    `\nThe visual editor, loaded by the edit pages after they run: ${files.join(", ") || "no chunk found"}, ` +
      `${kB(raw)} kB raw, ${kB(gzip)} kB gzip  ≤ ${kB(VISUAL_EDITOR_BUDGET_BYTES)} ${ok ? "ok" : "OVER"}`,
  );
  return !ok;
}

await main();
