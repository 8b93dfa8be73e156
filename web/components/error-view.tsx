import { Link, isRouteErrorResponse, useRouteError } from "react-router";
import { useLocale, useTranslation } from "../hooks.ts";

/**
 * What a 404 thrown by a loader says it is missing: an item of the kind whose public path (and message
 * namespace) this is (`ventures`, `blog`: `<path>.notFound`), or (default) a page.
 */
export type NotFoundKind = "page" | (string & {});

/** The body a loader throws with a 404: `throw data({ notFound: "ventures" }, { status: 404 })`. */
export interface NotFoundData {
  notFound: NotFoundKind;
}

/** The message key of what is missing (`blog` → `blog.notFound`; `page` → `notFound.text`). */
function messageKey(kind: NotFoundKind): string {
  return kind === "page" ? "notFound.text" : `${kind}.notFound`;
}

/**
 * The error screen: the spec's not-found page for 404s (title 404 / Page Not Found, its text, Go Home;
 * "Venture not found." / "Blog post not found." for unknown slugs), else the general error text.
 * Production builds hide error details (RR sanitizes server errors).
 */
export function ErrorView() {
  const error = useRouteError();
  const { t } = useTranslation();
  const locale = useLocale();
  if (isRouteErrorResponse(error) && error.status === 404) {
    const kind = (error.data as Partial<NotFoundData> | null)?.notFound ?? "page";
    return (
      <section className="mx-auto flex max-w-xl flex-col items-center py-28 text-center">
        <title>{`${t("notFound.title")} | ${t("site.name")}`}</title>
        <p className="text-7xl font-bold text-gold">{t("notFound.code")}</p>
        <h1 className="mt-4 text-3xl font-bold">{t("notFound.title")}</h1>
        <p className="mt-4 text-mist">{t(messageKey(kind))}</p>
        <Link
          to={`/${locale}`}
          className="mt-8 rounded-full bg-gold px-6 py-3 font-semibold text-ink hover:bg-gold-soft"
        >
          {t("notFound.goHome")}
        </Link>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-xl py-28 text-center" role="alert">
      <title>{t("general.unexpected")}</title>
      <h1 className="text-2xl font-bold">{t("general.unexpected")}</h1>
      <p className="mt-4 text-mist">{t("general.error")}</p>
    </section>
  );
}
