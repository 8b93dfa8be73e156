import { FadeIn } from "../../components/fade-in.tsx";
import { CheckIcon } from "../../components/icons.tsx";
import { SubmissionForm } from "../../components/submission-form.tsx";
import { InfoCard, PageHero, Section } from "../../components/ui.tsx";
import { useTextList, useTranslation } from "../../hooks.ts";
import { messagesFor } from "../../i18n/catalog.server.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { translatorOf, whenLocaleChanges } from "../../i18n/t.ts";
import { pageMeta } from "../../seo.ts";
import { formPageHeaders, handleFormPost } from "../../data/forms.server.ts";
import type { Route } from "./+types/community";

/** Stores a community application (spec §3: the interest text goes to `projectIdea`). */
export function action({ request, context }: Route.ActionArgs) {
  return handleFormPost(request, "community", context);
}

/** A refused submission's `Retry-After` reaches the document response (SECURITY C57). */
export function headers(args: Route.HeadersArgs) {
  return formPageHeaders(args);
}

/** The page's texts, in its language (issue 18: messages reach the browser as data). */
export function loader({ params }: Route.LoaderArgs) {
  return { messages: messagesFor(toLocale(params.locale), ["community", "forms"]) };
}

export const shouldRevalidate = whenLocaleChanges;

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("community.title"), description: t("community.description") });
}

/** Community (spec §2): the pitch and the application form. */
export default function Community({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const benefits = useTextList<{ title: string; text: string }>("community.benefits");
  const who = useTextList<string>("community.who");
  return (
    <>
      <PageHero eyebrow={t("community.eyebrow")} title={t("community.heroTitle")} text={t("community.heroText")} />

      <Section id="benefits" title={t("community.benefitsTitle")}>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {benefits.map((benefit) => (
            <InfoCard key={benefit.title} title={benefit.title} text={benefit.text} />
          ))}
        </ul>
      </Section>

      <section aria-labelledby="apply" className="py-12 sm:py-16">
        <FadeIn className="grid gap-10 lg:grid-cols-[1fr_1.2fr]">
          <div>
            <h2 id="who" className="text-2xl font-bold sm:text-3xl">
              {t("community.whoTitle")}
            </h2>
            <ul className="mt-6 space-y-3">
              {who.map((line) => (
                <li key={line} className="flex items-start gap-3 text-mist">
                  <CheckIcon className="mt-0.5 size-5 text-gold" />
                  <span>{line}</span>
                </li>
              ))}
            </ul>
            <h2 id="apply" className="mt-12 text-2xl font-bold sm:text-3xl">
              {t("community.formTitle")}
            </h2>
            <p className="mt-3 text-mist">{t("community.formIntro")}</p>
          </div>
          <SubmissionForm kind="community" actionData={actionData} />
        </FadeIn>
      </section>
    </>
  );
}
