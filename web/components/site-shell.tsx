import { useTranslation } from "react-i18next";
import { Link, NavLink, href, useLocation } from "react-router";
import { useLocale } from "../hooks.ts";
import { switchLocalePath, type Locale } from "../i18n/i18n.ts";
import { SITE } from "../site.ts";

/** Header navigation of spec §2, in order. Paths are relative to the locale root. */
const NAV = [
  { key: "home", path: "" },
  { key: "about", path: "/about" },
  { key: "services", path: "/services" },
  { key: "ventures", path: "/ventures" },
  { key: "blog", path: "/blog" },
  { key: "community", path: "/community" },
  { key: "partner", path: "/partner" },
  { key: "contact", path: "/contact" },
] as const;

function Header() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { pathname, search } = useLocation();
  const other: Locale = locale === "en" ? "ar" : "en";
  return (
    <header className="sticky top-0 z-20 border-b border-line/70 bg-ink/85 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center gap-6 px-5 py-4">
        <Link to={href("/:locale", { locale })} className="flex items-center gap-2 text-lg font-bold tracking-tight">
          <span aria-hidden className="inline-block size-3 rotate-45 bg-gold" />
          {t("site.name")}
        </Link>
        <nav aria-label={t("nav.main")} className="ms-auto overflow-x-auto">
          <ul className="flex items-center gap-1 text-sm whitespace-nowrap">
            {NAV.map((item) => (
              <li key={item.key}>
                <NavLink
                  to={`/${locale}${item.path}`}
                  end={item.path === ""}
                  className={({ isActive }) =>
                    `rounded-md px-3 py-2 transition-colors hover:text-gold ${isActive ? "text-gold" : "text-mist"}`
                  }
                >
                  {t(`nav.${item.key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <Link
          to={switchLocalePath(pathname, other) + search}
          hrefLang={other}
          lang={other}
          className="rounded-full border border-gold/60 px-3 py-1.5 text-sm text-gold hover:bg-gold hover:text-ink"
          aria-label={`${t("nav.language")}: ${t("nav.switchTo")}`}
        >
          {t("nav.switchTo")}
        </Link>
      </div>
    </header>
  );
}

function Footer() {
  const { t } = useTranslation();
  const locale = useLocale();
  const link = "text-mist hover:text-gold";
  return (
    <footer className="mt-24 border-t border-line bg-panel/60">
      <div className="mx-auto grid max-w-6xl gap-10 px-5 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="font-bold">{t("site.name")}</p>
          <p className="mt-2 text-sm text-gold">{t("site.tagline")}</p>
          <p className="mt-3 text-sm leading-relaxed text-mist">{t("site.description")}</p>
        </div>
        <nav aria-label={t("footer.navigation")}>
          <p className="font-semibold">{t("footer.navigation")}</p>
          <ul className="mt-3 space-y-2 text-sm">
            {NAV.map((item) => (
              <li key={item.key}>
                <Link className={link} to={`/${locale}${item.path}`}>
                  {t(`nav.${item.key}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label={t("footer.legal")}>
          <p className="font-semibold">{t("footer.legal")}</p>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link className={link} to={`/${locale}/privacy-policy`}>
                {t("footer.privacy")}
              </Link>
            </li>
            <li>
              <Link className={link} to={`/${locale}/terms-of-use`}>
                {t("footer.terms")}
              </Link>
            </li>
            <li>
              <Link className={link} to={`/${locale}/about`}>
                {t("footer.aboutUs")}
              </Link>
            </li>
            <li>
              <Link className={link} to={`/${locale}/contact`}>
                {t("footer.contact")}
              </Link>
            </li>
            <li>
              <Link className={link} to={`/${locale}/login`}>
                {t("footer.adminLogin")}
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <p className="font-semibold">{t("footer.support")}</p>
          <a className={`${link} mt-3 block text-sm`} href={`mailto:${SITE.supportEmail}`} dir="ltr">
            {SITE.supportEmail}
          </a>
          <p className="mt-6 font-semibold">{t("footer.social")}</p>
          <ul className="mt-3 flex gap-4 text-sm">
            <li>
              <a className={link} href={SITE.social.linkedin} rel="noopener noreferrer">
                {t("footer.linkedin")}
              </a>
            </li>
            <li>
              <a className={link} href={SITE.social.facebook} rel="noopener noreferrer">
                {t("footer.facebook")}
              </a>
            </li>
            <li>
              <a className={link} href={SITE.social.youtube} rel="noopener noreferrer">
                {t("footer.youtube")}
              </a>
            </li>
          </ul>
        </div>
      </div>
      <p className="border-t border-line px-5 py-5 text-center text-xs text-mist">
        {t("footer.rights", { year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}

/** Header, main and footer shared by every public page (spec §2). */
export function SiteShell({ children }: { children: React.ReactNode }) {
  return (
    <>
      <Header />
      <main id="main" className="mx-auto max-w-6xl px-5">
        {children}
      </main>
      <Footer />
    </>
  );
}
