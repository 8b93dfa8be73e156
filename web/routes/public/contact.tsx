import { useTranslation } from "../../hooks.ts";
import { FadeIn } from "../../components/fade-in.tsx";
import { ExternalIcon, MailIcon, PinIcon } from "../../components/icons.tsx";
import { SubmissionForm } from "../../components/submission-form.tsx";
import { PageHero } from "../../components/ui.tsx";
import { messagesFor } from "../../i18n/catalog.server.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { translatorOf, whenLocaleChanges } from "../../i18n/t.ts";
import { pageMeta } from "../../seo.ts";
import { formPageHeaders, handleFormPost } from "../../data/forms.server.ts";
import { SITE } from "../../site.ts";
import type { Route } from "./+types/contact";

/** Stores a contact message (spec §3). */
export function action({ request, context }: Route.ActionArgs) {
  return handleFormPost(request, "contact", context);
}

/** A refused submission's `Retry-After` reaches the document response (SECURITY C57). */
export function headers(args: Route.HeadersArgs) {
  return formPageHeaders(args);
}

/** The page's texts, in its language (issue 18: messages reach the browser as data). */
export function loader({ params }: Route.LoaderArgs) {
  return { messages: messagesFor(toLocale(params.locale), ["contact", "forms"]) };
}

export const shouldRevalidate = whenLocaleChanges;

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("contact.title"), description: t("contact.description") });
}

/** Contact (spec §2): the support e-mail, the US office with a map link, and the message form. */
export default function Contact({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHero eyebrow={t("contact.eyebrow")} title={t("contact.heroTitle")} text={t("contact.heroText")} />
      <FadeIn className="grid gap-10 lg:grid-cols-[1fr_1.4fr]">
        <div className="space-y-6">
          <section aria-labelledby="support-email" className="rounded-3xl border border-line bg-panel p-6 sm:p-8">
            <MailIcon className="size-7 text-gold" />
            <h2 id="support-email" className="mt-4 text-lg font-bold">
              {t("contact.emailTitle")}
            </h2>
            <p className="mt-2 text-sm text-mist">{t("contact.emailText")}</p>
            <a
              href={`mailto:${SITE.supportEmail}`}
              className="mt-4 inline-block font-semibold break-all text-gold hover:underline"
              dir="ltr"
            >
              {SITE.supportEmail}
            </a>
          </section>
          <section aria-labelledby="office" className="rounded-3xl border border-line bg-panel p-6 sm:p-8">
            <PinIcon className="size-7 text-gold" />
            <h2 id="office" className="mt-4 text-lg font-bold">
              {t("contact.officeTitle")}
            </h2>
            <p className="mt-2 text-sm text-mist">{t("contact.officeText")}</p>
            <address className="mt-4 leading-relaxed not-italic" lang="en" translate="no">
              {SITE.office.lines.map((line) => (
                <span key={line} className="block">
                  <bdi dir="ltr">{line}</bdi>
                </span>
              ))}
            </address>
            <a
              href={SITE.office.mapUrl}
              rel="noopener noreferrer"
              className="mt-4 inline-flex items-center gap-2 text-sm font-semibold text-gold hover:underline"
            >
              {t("contact.mapLink")}
              <ExternalIcon />
            </a>
          </section>
        </div>
        <section aria-labelledby="contact-form">
          <h2 id="contact-form" className="mb-6 text-2xl font-bold">
            {t("contact.formTitle")}
          </h2>
          <SubmissionForm kind="contact" actionData={actionData} />
        </section>
      </FadeIn>
    </>
  );
}
