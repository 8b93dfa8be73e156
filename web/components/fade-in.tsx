import { useEffect, useRef } from "react";

/** Share of an element that must be visible before it fades in (spec §9). */
export const FADE_THRESHOLD = 0.1;

/**
 * Fades its children in when 10% of them scroll into view (spec §2, §9). Server-rendered content is visible
 * (no JavaScript, no fade); after hydration only content below the fold is hidden until it is reached, and
 * nothing is hidden or moved for visitors who prefer reduced motion.
 */
export function FadeIn({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const box = element.getBoundingClientRect();
    if (box.top < window.innerHeight && box.bottom > 0) return; // already on screen: never hide it
    element.dataset.fade = "out";
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          element.dataset.fade = "in";
          observer.disconnect();
        }
      },
      { threshold: FADE_THRESHOLD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className={`fade-in ${className}`}>
      {children}
    </div>
  );
}
