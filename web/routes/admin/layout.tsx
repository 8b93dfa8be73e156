import { useTranslation } from "../../hooks.ts";
import {
  data,
  Form,
  Link,
  NavLink,
  Outlet,
  isRouteErrorResponse,
  redirect,
  useNavigation,
  useRouteError,
} from "react-router";
import { FlashMessage } from "../../components/admin/flash.tsx";
import { InboxNavLink } from "../../components/admin/inbox-badge.tsx";
import { inboxNav } from "../../data/inbox.server.ts";
import { LanguageSwitch } from "../../components/admin/language-switch.tsx";
import { allMessages } from "../../i18n/catalog.server.ts";
import { takeFlash } from "../../data/admin-flash.server.ts";
import { localeCookie, preferredLocale, requireUser } from "../../data/session.server.ts";
import { accessOf } from "../../data/access.server.ts";
import type { Route } from "./+types/layout";
import { CONTENT_KIND_NAMES, CONTENT_MODEL } from "../../../model/model.ts";

/**
 * The guarded admin layout (spec §2): without a user, a redirect to `/{locale}/login`; pages never cached. The
 * admin speaks `preferredLocale` (issue #17 item 1): a link from the site (`/admin?lang=ar`) is remembered in
 * the `locale` cookie and the page shown again without the parameter; the switch (`/admin/locale`) wins after.
 * It shows, once, the flash message the last save, delete or account change left (issue #17 item 3).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user, secret } = await requireUser(request);
  const locale = preferredLocale(request);
  const url = new URL(request.url);
  if (url.searchParams.has("lang")) {
    url.searchParams.delete("lang");
    throw redirect(url.pathname + url.search, { headers: { "Set-Cookie": localeCookie(locale) } });
  }
  const { flash, setCookie } = await takeFlash(request, locale);
  // One look-up of the user's studio role serves both links; a failed one only hides them. The inbox link and
  // its unread count are the team's (issue #31); the Team page is the owner's (issue #28 item 2).
  const role = await accessOf(user).then(
    (access) => access.role,
    () => null,
  );
  const inbox = role ? await inboxNav(secret) : null;
  const owner = role === "owner";
  // The admin's texts, in its language: every message (the admin is one application, never a public page).
  return data(
    { user, locale, messages: allMessages(locale), flash, inbox, owner, team: role !== null },
    { headers: setCookie ? { "Set-Cookie": setCookie } : undefined },
  );
}

export function meta() {
  return [{ name: "robots", content: "noindex" }];
}

/** The admin's navigation: the dashboard, each kind of the content model (`admin.nav.<adminPath>`), the trash, the account. */
const LINKS = [
  { to: "/admin", key: "admin.nav.dashboard", end: true },
  ...CONTENT_KIND_NAMES.map((kind) => {
    const { adminPath } = CONTENT_MODEL[kind];
    return { to: `/admin/${adminPath}`, key: `admin.nav.${adminPath}`, end: false };
  }),
  // Deleted items, restorable for 30 days (issue #29 item 9): each user sees what they could edit.
  { to: "/admin/trash", key: "admin.nav.trash", end: false },
  { to: "/admin/account", key: "admin.nav.account", end: false },
];

/** The media library's link, shown to the studio team (issue #30 item 3). */
const MEDIA_LINK = { to: "/admin/media", key: "admin.media.nav", end: false };

/** The Team page's link, shown to the team's owner only. */
const TEAM_LINK = { to: "/admin/team", key: "admin.nav.team", end: false };

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const link = ({ isActive }: { isActive: boolean }) =>
    `block rounded-lg px-3 py-2 text-sm ${isActive ? "bg-gold/15 text-gold" : "text-mist hover:text-white"}`;
  return (
    <div className="min-h-screen md:flex">
      <aside className="border-b border-line bg-panel p-4 md:min-h-screen md:w-60 md:border-e md:border-b-0">
        <p className="px-3 pb-4 font-bold">
          {t("site.name")} <span className="text-gold">{t("nav.admin")}</span>
        </p>
        <nav aria-label={t("nav.admin")}>
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {[...LINKS, ...(loaderData.team ? [MEDIA_LINK] : []), ...(loaderData.owner ? [TEAM_LINK] : [])].map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={l.end} className={link}>
                  {t(l.key)}
                </NavLink>
              </li>
            ))}
            {loaderData.inbox && (
              <li>
                <InboxNavLink unread={loaderData.inbox.unread} className={link} />
              </li>
            )}
            <li>
              <a
                href={`/${loaderData.locale}`}
                className="block rounded-lg px-3 py-2 text-sm text-mist hover:text-white"
              >
                {t("admin.nav.viewSite")}
              </a>
            </li>
            <li>
              <Form method="post" action="/admin/logout">
                <button
                  type="submit"
                  className="w-full rounded-lg px-3 py-2 text-start text-sm text-mist hover:text-white"
                >
                  {t("admin.nav.logout")}
                </button>
              </Form>
            </li>
          </ul>
        </nav>
        <LanguageSwitch />
        <p className="mt-4 px-3 text-xs text-mist" dir="auto">
          {loaderData.user.name || loaderData.user.email}
        </p>
      </aside>
      <main className="flex-1 p-6 md:p-10" aria-busy={navigation.state === "loading"}>
        {navigation.state === "loading" && (
          <p role="status" className="mb-4 text-sm text-mist">
            {t("general.loading")}
          </p>
        )}
        <FlashMessage flash={loaderData.flash} />
        <Outlet />
      </main>
    </div>
  );
}

/**
 * The admin's error screen: the error's own message (the spec's texts, e.g. "Failed to load post data."), else
 * "Page Not Found" for a 404 or the general error, and a link back to the admin. Only the shell's namespaces
 * (`general`, `notFound`, `nav`) are used: when a POST fails (a stranger's delete in the inbox, SECURITY C65) or
 * this layout's own loader does, no loader gave the page the admin's messages; the root's give it the admin's
 * language (`useLocale`).
 */
export function ErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const routeError = isRouteErrorResponse(error) ? error : null;
  const own = (routeError?.data as { message?: unknown } | null | undefined)?.message;
  const message = typeof own === "string" ? own : routeError?.status === 404 ? t("notFound.title") : t("general.error");
  return (
    <main className="p-10">
      <p role="alert" className="text-red-400">
        {message}
      </p>
      <Link to="/admin" className="mt-4 inline-block text-gold hover:underline">
        {t("nav.admin")}
      </Link>
    </main>
  );
}
