/** The captured pages (`scripts/bench/lib/peer-capture.ts` writes them; the alias is in `vite.config.ts`). */
declare module "virtual:captured" {
  import type { Captured } from "./tree.tsx";
  const captured: Captured;
  export default captured;
}
