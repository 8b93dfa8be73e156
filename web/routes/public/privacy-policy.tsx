import { LegalPage } from "../../components/legal-page.tsx";
import { getI18n, toLocale } from "../../i18n/i18n.ts";
import { pageMeta } from "../../seo.ts";
import type { Route } from "./+types/privacy-policy";

export function meta(args: Route.MetaArgs) {
  const { t } = getI18n(toLocale(args.params.locale));
  return pageMeta(args, { title: t("legal.privacy.title"), description: t("legal.privacy.description") });
}

/** Privacy policy (linked from the footer, spec §2). */
export default function PrivacyPolicy() {
  return <LegalPage doc="privacy" />;
}
