import { useTranslation } from "../hooks.ts";
import { PageHero } from "./ui.tsx";

export type ListKind = "ventures" | "blog";

/** Number of placeholder cards while a list loads (spec §9). */
export const SKELETON_COUNT = 6;

/** A grid of 6 placeholder cards announced as "Loading..." (spec §2: ventures and blog while loading). */
export function SkeletonGrid() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite">
      <span className="sr-only">{t("general.loading")}</span>
      <ul aria-hidden className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {Array.from({ length: SKELETON_COUNT }, (_, i) => (
          <li
            key={i}
            data-skeleton-card
            className="flex animate-pulse flex-col gap-4 overflow-hidden rounded-2xl border border-line bg-panel p-6"
          >
            <div className="aspect-video w-full rounded-xl bg-line/70" />
            <div className="h-4 w-1/3 rounded bg-line/70" />
            <div className="h-5 w-3/4 rounded bg-line" />
            <div className="h-3 w-full rounded bg-line/60" />
            <div className="h-3 w-5/6 rounded bg-line/60" />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The ventures or blog page as it looks while its list loads: its title and intro, then the skeletons. */
export function ListSkeleton({ kind }: { kind: ListKind }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHero eyebrow={t("site.tagline")} title={t(`${kind}.title`)} text={t(`${kind}.intro`)} />
      <SkeletonGrid />
    </>
  );
}
