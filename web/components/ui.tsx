/**
 * Building blocks shared by the public pages: buttons as links, the page hero, titled sections and the
 * closing call to action. Layout uses logical properties only (ms/me/ps/pe, start/end), so it mirrors in
 * right-to-left pages by itself.
 */
import { Link } from "react-router";
import { FadeIn } from "./fade-in.tsx";
import { ArrowForward } from "./icons.tsx";

const BUTTON = {
  primary:
    "bg-gold text-ink shadow-[0_10px_30px_-12px_rgba(212,175,55,0.7)] hover:bg-gold-soft focus-visible:bg-gold-soft",
  ghost: "border border-line text-white hover:border-gold hover:text-gold",
} as const;

/** A link styled as a button; `arrow` adds a forward arrow that follows the reading direction. */
export function ButtonLink(props: {
  to: string;
  children: React.ReactNode;
  variant?: keyof typeof BUTTON;
  arrow?: boolean;
  className?: string;
}) {
  return (
    <Link
      to={props.to}
      className={`inline-flex items-center justify-center gap-2 rounded-full px-6 py-3 text-sm font-semibold transition-colors ${BUTTON[props.variant ?? "primary"]} ${props.className ?? ""}`}
    >
      {props.children}
      {props.arrow && <ArrowForward />}
    </Link>
  );
}

/** A small uppercase label above a title. */
export function Eyebrow({ children }: { children: React.ReactNode }) {
  return <p className="text-xs font-semibold tracking-[0.2em] text-gold uppercase">{children}</p>;
}

/** The top of a page: eyebrow, the page's only `<h1>`, a lead paragraph and optional actions. */
export function PageHero(props: { eyebrow: string; title: string; text: string; children?: React.ReactNode }) {
  return (
    <section className="relative isolate pt-16 pb-12 sm:pt-24 sm:pb-16">
      <div
        aria-hidden
        className="pointer-events-none absolute -top-24 start-0 -z-10 h-72 w-[36rem] max-w-full bg-radial-[closest-side] from-gold/15 from-20% to-transparent"
      />
      <Eyebrow>{props.eyebrow}</Eyebrow>
      <h1 className="mt-4 max-w-3xl text-4xl leading-tight font-bold text-balance sm:text-5xl">{props.title}</h1>
      <p className="mt-6 max-w-2xl text-lg leading-relaxed text-mist">{props.text}</p>
      {props.children && <div className="mt-10 flex flex-wrap gap-4">{props.children}</div>}
    </section>
  );
}

/** A titled page section (`<h2>` labels it) that fades in when reached. */
export function Section(props: {
  id: string;
  title: string;
  intro?: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={props.id} className={`py-12 sm:py-16 ${props.className ?? ""}`}>
      <FadeIn>
        <h2 id={props.id} className="text-2xl font-bold sm:text-3xl">
          {props.title}
        </h2>
        {props.intro && <p className="mt-3 max-w-2xl text-mist">{props.intro}</p>}
        <div className="mt-8">{props.children}</div>
      </FadeIn>
    </section>
  );
}

/** A bordered card with a title and text. */
export function InfoCard(props: { title: string; text: string; badge?: React.ReactNode; headingLevel?: 3 | 4 }) {
  const Heading = props.headingLevel === 4 ? "h4" : "h3";
  return (
    <li className="flex flex-col rounded-2xl border border-line bg-panel p-6 transition-colors hover:border-gold/50">
      {props.badge}
      <Heading className="font-bold text-gold-soft">{props.title}</Heading>
      <p className="mt-3 text-sm leading-relaxed text-mist">{props.text}</p>
    </li>
  );
}

/** The closing call to action of a page: a title, a line of text and buttons. */
export function CallToAction(props: { id: string; title: string; text: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={props.id} className="py-12 sm:py-16">
      <FadeIn>
        <div className="relative overflow-hidden rounded-3xl border border-gold/30 bg-gradient-to-br from-gold/15 via-panel to-panel p-8 sm:p-12">
          <h2 id={props.id} className="text-2xl font-bold sm:text-3xl">
            {props.title}
          </h2>
          <p className="mt-3 max-w-xl text-mist">{props.text}</p>
          <div className="mt-8 flex flex-wrap gap-4">{props.children}</div>
        </div>
      </FadeIn>
    </section>
  );
}
