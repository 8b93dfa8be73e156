import { useEffect, useRef } from "react";
import { Link, NavLink, href, useLocation } from "react-router";
import { useLocale, useTranslation } from "../hooks.ts";
import { switchLocalePath, type Locale } from "../i18n/i18n.ts";
import { otherLocales } from "../../model/locales.ts";
import { CloseIcon, MenuIcon } from "./icons.tsx";
import { useNav } from "./nav.ts";

const MENU_ID = "mobile-menu";

function navClass({ isActive }: { isActive: boolean }): string {
  return `rounded-md px-3 py-2 transition-colors hover:text-gold ${isActive ? "text-gold" : "text-mist"}`;
}

/** The studio's name with its gold mark, linking home. */
function Brand() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Link to={href("/:locale", { locale })} className="flex shrink-0 items-center gap-2.5 text-lg font-bold">
      <span aria-hidden className="inline-block size-3 rotate-45 bg-gold shadow-[0_0_18px_rgba(212,175,55,0.8)]" />
      {t("site.name")}
    </Link>
  );
}

/** Links to the same page in the other language (spec §2: the first path segment is replaced). */
function LanguageSwitch() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { pathname, search } = useLocation();
  // Two locales: the switch names the other one (a third would make this a menu of `otherLocales`).
  const other: Locale = otherLocales(locale)[0]!;
  return (
    <Link
      to={switchLocalePath(pathname, other) + search}
      hrefLang={other}
      lang={other}
      className="rounded-full border border-gold/60 px-3 py-1.5 text-sm text-gold transition-colors hover:bg-gold hover:text-ink"
      aria-label={`${t("nav.language")}: ${t("nav.switchTo")}`}
    >
      {t("nav.switchTo")}
    </Link>
  );
}

/** Focuses the menu's first navigation link when it opens, so the keyboard starts inside it. */
function focusFirstItem(event: React.ToggleEvent<HTMLDivElement>): void {
  if (event.newState === "open") event.currentTarget.querySelector<HTMLElement>("nav a[href]")?.focus();
}

/**
 * The slide-in menu of small screens (spec §2), built on the HTML popover API so it opens, closes on Escape
 * or an outside click (focus then returns to the menu button), and slides in from the inline end without
 * JavaScript; while it is open the page behind does not scroll (app.css) and it carries its own language
 * switch, since the header's is under its backdrop (issue 18 item 6). With JavaScript it also takes the focus
 * when it opens and closes when a link is followed.
 */
function MobileMenu({ showAdmin }: { showAdmin: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const nav = useNav();
  const { pathname } = useLocation();
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = menu.current;
    if (element?.matches(":popover-open")) element.hidePopover();
  }, [pathname]);
  return (
    <div ref={menu} id={MENU_ID} popover="auto" className="mobile-menu" onToggle={focusFirstItem}>
      <div className="flex items-center gap-3 border-b border-line px-5 py-4">
        <span className="me-auto font-bold">{t("site.name")}</span>
        <LanguageSwitch />
        <button
          type="button"
          popoverTarget={MENU_ID}
          popoverTargetAction="hide"
          className="grid size-10 place-items-center rounded-full text-mist hover:text-gold"
        >
          <CloseIcon />
          <span className="sr-only">{t("nav.closeMenu")}</span>
        </button>
      </div>
      <nav aria-label={t("nav.mobile")} className="px-3 py-4">
        <ul className="flex flex-col text-base">
          {nav.map((item) => (
            <li key={item.key}>
              <NavLink
                to={`/${locale}${item.path}`}
                end={item.path === ""}
                className={(s) => `block ${navClass(s)} py-3`}
              >
                {t(`nav.${item.key}`)}
              </NavLink>
            </li>
          ))}
          {showAdmin && (
            <li>
              <NavLink to={`/admin?lang=${locale}`} className={(s) => `block ${navClass(s)} py-3`}>
                {t("nav.admin")}
              </NavLink>
            </li>
          )}
        </ul>
      </nav>
      <div className="px-5 pb-8">
        <Link
          to={href("/:locale/community", { locale })}
          className="block rounded-full bg-gold px-6 py-3 text-center font-semibold text-ink hover:bg-gold-soft"
        >
          {t("nav.buildWithUs")}
        </Link>
      </div>
    </div>
  );
}

/**
 * The site header: brand, navigation of spec §2 (inline on wide screens, a slide-in menu on small ones),
 * language switch. `showAdmin` adds the Admin link; only a signed-in user gets it (wired by the auth work).
 */
export function Header({ showAdmin = false }: { showAdmin?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const nav = useNav();
  return (
    <header className="sticky top-0 z-30 border-b border-line/70 bg-ink/85 backdrop-blur">
      <a
        href="#main"
        className="sr-only rounded-md bg-gold px-4 py-2 font-semibold text-ink focus:not-sr-only focus:absolute focus:start-4 focus:top-3"
      >
        {t("nav.skipToContent")}
      </a>
      <div className="mx-auto flex max-w-6xl items-center gap-4 px-5 py-3">
        <Brand />
        <nav aria-label={t("nav.main")} className="ms-auto hidden xl:block">
          <ul className="flex items-center gap-0.5 text-sm whitespace-nowrap">
            {nav.map((item) => (
              <li key={item.key}>
                <NavLink to={`/${locale}${item.path}`} end={item.path === ""} className={navClass}>
                  {t(`nav.${item.key}`)}
                </NavLink>
              </li>
            ))}
            {showAdmin && (
              <li>
                <NavLink to={`/admin?lang=${locale}`} className={navClass}>
                  {t("nav.admin")}
                </NavLink>
              </li>
            )}
          </ul>
        </nav>
        <div className="ms-auto flex items-center gap-2 xl:ms-2">
          <LanguageSwitch />
          <button
            type="button"
            popoverTarget={MENU_ID}
            className="grid size-10 place-items-center rounded-full border border-line text-white hover:border-gold hover:text-gold xl:hidden"
          >
            <MenuIcon />
            <span className="sr-only">{t("nav.openMenu")}</span>
          </button>
        </div>
      </div>
      <MobileMenu showAdmin={showAdmin} />
    </header>
  );
}
