import { LegalPage } from "../../components/legal-page.tsx";
import { messagesFor } from "../../i18n/catalog.server.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { translatorOf, whenLocaleChanges } from "../../i18n/t.ts";
import { pageMeta } from "../../seo.ts";
import type { Route } from "./+types/privacy-policy";

/** The page's texts, in its language (issue 18: messages reach the browser as data). */
export function loader({ params }: Route.LoaderArgs) {
  return { messages: messagesFor(toLocale(params.locale), ["legal.updated", "legal.contents", "legal.privacy"]) };
}

export const shouldRevalidate = whenLocaleChanges;

export function meta(args: Route.MetaArgs) {
  const { t } = translatorOf(args.matches);
  return pageMeta(args, { title: t("legal.privacy.title"), description: t("legal.privacy.description") });
}

/** Privacy policy (linked from the footer, spec §2). */
export default function PrivacyPolicy() {
  return <LegalPage doc="privacy" />;
}
