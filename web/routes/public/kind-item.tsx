import { Link, data, useLoaderData, type HeadersArgs, type LoaderFunctionArgs, type MetaArgs } from "react-router";
import type { NotFoundData } from "../../components/error-view.tsx";
import { useLocale, useTranslation } from "../../hooks.ts";
import { ArrowBack } from "../../components/icons.tsx";
import { MediaImage } from "../../components/media-image.tsx";
import { Names } from "../../components/names.tsx";
import { shownValue } from "../../components/kind-card.tsx";
import { VersionNotice, versionAttributes } from "../../components/version-notice.tsx";
import { PreviewBanner } from "../../components/preview-banner.tsx";
import { toLocale } from "../../i18n/i18n.ts";
import { pageMeta } from "../../seo.ts";
import { loadKindItem } from "../../data/kind-pages.server.ts";
import { loadItemPage, PREVIEW_HEADERS } from "../../data/preview.server.ts";
import { publicKindOf } from "../../kind-route.ts";
import { CONTENT_MODEL } from "../../../model/model.ts";

/**
 * The page of an item of a kind without an item page of its own (`views.item`), mounted per kind at
 * `/<locale>/<path>/:slug` (`web/routes.ts`): title, description, its short fields (labels `<path>.<field>`),
 * image and body. An unknown slug answers 404 with `<path>.notFound`; a draft or scheduled item is a preview
 * for a signed-in user or a shared link, never cached (issue #16).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const kind = publicKindOf(request.url);
  const path: string = CONTENT_MODEL[kind].publicPath;
  const locale = toLocale(params.locale);
  const page = await loadItemPage(request, kind, params.slug ?? "", (slug, reader) =>
    loadKindItem(kind, slug, locale, reader),
  );
  if (!page) throw data<NotFoundData>({ notFound: path }, { status: 404 });
  const loaded = { path, item: page.item, preview: page.preview };
  return page.preview ? data(loaded, { headers: PREVIEW_HEADERS }) : loaded;
}

/** A preview's `no-store` and `noindex` reach the document response. */
export function headers({ loaderHeaders }: HeadersArgs) {
  return loaderHeaders;
}

export function meta(args: MetaArgs<typeof loader>) {
  if (!args.loaderData) return [];
  const { item, preview } = args.loaderData;
  return pageMeta(args, {
    title: item.title,
    description: item.description,
    image: item.image,
    locales: item.locales,
    noindex: preview,
  });
}

export default function KindItem() {
  const loaderData = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const locale = useLocale();
  const { item, path, preview } = loaderData;
  return (
    <article className="mx-auto max-w-3xl pt-10 pb-12">
      {preview && <PreviewBanner />}
      <Link to={`/${locale}/${path}`} className="inline-flex items-center gap-2 text-sm text-mist hover:text-gold">
        <ArrowBack />
        {t(`${path}.back`)}
      </Link>
      <VersionNotice version={item.locale} noun={path} />
      <div {...versionAttributes(item.locale, locale)}>
        <h1 className="mt-8 text-3xl leading-tight font-bold text-balance sm:text-4xl">
          <Names text={item.title} lang={item.locale} />
        </h1>
        {item.description && (
          <p className="mt-3 text-lg text-mist">
            <Names text={item.description} lang={item.locale} />
          </p>
        )}
        <dl className="mt-4 flex flex-wrap gap-x-6 gap-y-1 text-sm text-mist">
          {item.fields.map((field) => (
            <div key={field.name} className="flex gap-2">
              <dt>{t(`${path}.${field.name}`)}</dt>
              <dd>
                {field.type === "date" ? (
                  <time dateTime={field.value}>{shownValue(field, locale)}</time>
                ) : (
                  <Names text={field.value} lang={item.locale} />
                )}
              </dd>
            </div>
          ))}
        </dl>
        {item.image && (
          <MediaImage
            src={item.image}
            alt=""
            slot="postHero"
            className="mt-10 aspect-video w-full rounded-2xl object-cover"
            priority
          />
        )}
        <div className="prose-body mt-10" dangerouslySetInnerHTML={{ __html: item.bodyHtml }} />
      </div>
    </article>
  );
}
