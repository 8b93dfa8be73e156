import { useLocale, useTextList, useTranslation } from "../hooks.ts";
import { formatLongDate } from "../i18n/i18n.ts";
import { SITE } from "../site.ts";
import { Eyebrow } from "./ui.tsx";

interface LegalSection {
  title: string;
  paragraphs: string[];
}

/** The privacy policy or the terms of use (linked from the footer, spec §2): contents, then numbered sections. */
export function LegalPage({ doc }: { doc: "privacy" | "terms" }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const sections = useTextList<LegalSection>(`legal.${doc}.sections`);
  return (
    <article className="mx-auto max-w-3xl pt-16 pb-12">
      <Eyebrow>{t("footer.legal")}</Eyebrow>
      <h1 className="mt-4 text-4xl font-bold">{t(`legal.${doc}.title`)}</h1>
      <p className="mt-3 text-sm text-mist">
        <time dateTime={SITE.legalUpdated}>
          {t("legal.updated", { date: formatLongDate(SITE.legalUpdated, locale) })}
        </time>
      </p>
      <p className="mt-8 text-lg leading-relaxed text-mist">{t(`legal.${doc}.intro`)}</p>
      <nav aria-labelledby="contents" className="mt-10 rounded-2xl border border-line bg-panel p-6">
        <h2 id="contents" className="text-sm font-semibold text-gold">
          {t("legal.contents")}
        </h2>
        <ol className="mt-4 list-decimal space-y-1.5 ps-5 text-sm marker:text-gold">
          {sections.map((section, i) => (
            <li key={section.title}>
              <a href={`#section-${i + 1}`} className="text-mist hover:text-gold">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="prose-body mt-10">
        {sections.map((section, i) => (
          <section
            key={section.title}
            id={`section-${i + 1}`}
            aria-labelledby={`section-${i + 1}-title`}
            className="scroll-mt-24"
          >
            <h2 id={`section-${i + 1}-title`}>
              {i + 1}. {section.title}
            </h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </section>
        ))}
        <p>
          <a href={`mailto:${SITE.supportEmail}`} dir="ltr">
            {SITE.supportEmail}
          </a>
        </p>
      </div>
    </article>
  );
}
