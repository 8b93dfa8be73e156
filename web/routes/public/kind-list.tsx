import { useLoaderData, useLocation, type LoaderFunctionArgs, type MetaArgs } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { ListError } from "../../components/list-error.tsx";
import { KindGrid } from "../../components/kind-card.tsx";
import { PageHero } from "../../components/ui.tsx";
import { translatorOf } from "../../i18n/t.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { pageMeta } from "../../seo.ts";
import { loadKindCards } from "../../data/kind-pages.server.ts";
import { publicKindOf } from "../../kind-route.ts";
import { CONTENT_MODEL } from "../../../model/model.ts";

/**
 * The list of a kind without a list page of its own (`views.list`), mounted per kind at `/<locale>/<path>`
 * (`web/routes.ts`): every public item, newest first, those in the page's language first (issue #35). Its
 * texts are the kind's messages: `<path>.title`, `.intro`, `.empty`, `.readMore`, `.onlyIn.<locale>`.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const kind = publicKindOf(request.url);
  const path: string = CONTENT_MODEL[kind].publicPath;
  return { path, items: await loadKindCards(kind, toLocale(params.locale)) };
}

export function meta(args: MetaArgs<typeof loader>) {
  const { t } = translatorOf(args.matches);
  const path = args.location.pathname.split("/")[2];
  return pageMeta(args, { title: t(`${path}.title`), description: t(`${path}.intro`) });
}

export default function KindList() {
  const loaderData = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const locale = useLocale();
  const { path, items } = loaderData;
  const own = items.filter((v) => v.locale === locale);
  const others = items.filter((v) => v.locale !== locale);
  return (
    <>
      <PageHero eyebrow={t("site.tagline")} title={t(`${path}.title`)} text={t(`${path}.intro`)} />
      {(own.length > 0 || others.length === 0) && <KindGrid items={own} path={path} />}
      {others.length > 0 && (
        <section className="pt-14">
          <KindGrid items={others} path={path} />
        </section>
      )}
    </>
  );
}

/** A failed load shows the page's error text (spec §8 general.error). */
export function ErrorBoundary() {
  return <ListError kind={useLocation().pathname.split("/")[2] ?? ""} />;
}
