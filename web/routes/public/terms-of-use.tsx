import { LegalPage } from "../../components/legal-page.tsx";
import { getI18n, toLocale } from "../../i18n/i18n.ts";
import { pageMeta } from "../../seo.ts";
import type { Route } from "./+types/terms-of-use";

export function meta(args: Route.MetaArgs) {
  const { t } = getI18n(toLocale(args.params.locale));
  return pageMeta(args, { title: t("legal.terms.title"), description: t("legal.terms.description") });
}

/** Terms of use (linked from the footer, spec §2). */
export default function TermsOfUse() {
  return <LegalPage doc="terms" />;
}
