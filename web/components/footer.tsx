import { Link, href } from "react-router";
import { useLocale, useTranslation } from "../hooks.ts";
import { SITE } from "../site.ts";
import { FacebookIcon, LinkedInIcon, MailIcon, RssIcon, YouTubeIcon } from "./icons.tsx";
import { useNav } from "./nav.ts";

const LINK = "text-mist transition-colors hover:text-gold";

/** The site footer (spec §2): navigation, legal links, the support e-mail and social links. */
export function Footer() {
  const { t } = useTranslation();
  const locale = useLocale();
  const nav = useNav();
  const legal = [
    { to: href("/:locale/privacy-policy", { locale }), label: t("footer.privacy") },
    { to: href("/:locale/terms-of-use", { locale }), label: t("footer.terms") },
    { to: href("/:locale/about", { locale }), label: t("footer.aboutUs") },
    { to: href("/:locale/contact", { locale }), label: t("footer.contact") },
    { to: `/${locale}/login`, label: t("footer.adminLogin") },
  ];
  const social = [
    { url: SITE.social.linkedin, label: t("footer.linkedin"), Icon: LinkedInIcon },
    { url: SITE.social.facebook, label: t("footer.facebook"), Icon: FacebookIcon },
    { url: SITE.social.youtube, label: t("footer.youtube"), Icon: YouTubeIcon },
  ];
  return (
    <footer className="mt-24 border-t border-line bg-panel/60">
      <div className="mx-auto grid max-w-6xl gap-10 px-5 py-14 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1.2fr]">
        <div>
          <p className="flex items-center gap-2.5 font-bold">
            <span aria-hidden className="inline-block size-2.5 rotate-45 bg-gold" />
            {t("site.name")}
          </p>
          <p className="mt-3 text-sm font-semibold text-gold">{t("site.tagline")}</p>
          <p className="mt-3 text-sm leading-relaxed text-mist">{t("site.description")}</p>
        </div>
        <nav aria-label={t("footer.navigation")}>
          <h2 className="text-sm font-semibold">{t("footer.navigation")}</h2>
          <ul className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-1">
            {nav.map((item) => (
              <li key={item.key}>
                <Link className={LINK} to={`/${locale}${item.path}`}>
                  {t(`nav.${item.key}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={t("footer.legal")}>
          <h2 className="text-sm font-semibold">{t("footer.legal")}</h2>
          <ul className="mt-4 space-y-2 text-sm">
            {legal.map((item) => (
              <li key={item.to}>
                <Link className={LINK} to={item.to}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold">{t("footer.support")}</h2>
          <a className={`${LINK} mt-4 inline-flex items-center gap-2 text-sm`} href={`mailto:${SITE.supportEmail}`}>
            <MailIcon className="size-4" />
            <span dir="ltr">{SITE.supportEmail}</span>
          </a>
          <h2 className="mt-8 text-sm font-semibold">{t("footer.social")}</h2>
          <ul className="mt-4 flex flex-wrap gap-3 text-sm">
            {social.map(({ url, label, Icon }) => (
              <li key={url}>
                <a
                  className={`${LINK} inline-flex items-center gap-2 rounded-full border border-line px-3 py-1.5 hover:border-gold`}
                  href={url}
                  rel="noopener noreferrer"
                >
                  <Icon className="size-4" />
                  {label}
                </a>
              </li>
            ))}
          </ul>
          <a
            className={`${LINK} mt-6 inline-flex items-center gap-2 text-sm`}
            href={`/${locale}/rss.xml`}
            type="application/rss+xml"
          >
            <RssIcon className="size-4" />
            {t("footer.rss")}
          </a>
        </div>
      </div>
      <p className="border-t border-line px-5 py-6 text-center text-xs text-mist">
        {t("footer.rights", { year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}
