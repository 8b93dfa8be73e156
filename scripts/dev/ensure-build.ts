/**
 * `npx tsx scripts/dev/ensure-build.ts`: makes the site's production build unless `build/` was made from the
 * same sources (`ensureBuild`, server/build.ts), as `npm start` and the tests' global setup do. CI (`.ci/run`)
 * runs it beside the type check and lint, whose two processes leave a core idle once the type check is done,
 * so the tests find the build made (issue #27 item 4). Exits 1 with the build's output when it fails.
 */
import { ensureBuild } from "../../server/build.ts";

try {
  const built = await ensureBuild(process.cwd(), { quiet: true });
  console.log(built ? "Built the site." : "The site's build is up to date.");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
