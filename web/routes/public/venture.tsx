import { Link, data, href } from "react-router";
import { VentureGrid } from "../../components/cards.tsx";
import type { NotFoundData } from "../../components/error-view.tsx";
import { ArrowBack, ExternalIcon } from "../../components/icons.tsx";
import { MediaImage } from "../../components/media-image.tsx";
import { useLocale, useTranslation } from "../../hooks.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { pageMeta } from "../../seo.ts";
import { VersionNotice, versionAttributes } from "../../components/version-notice.tsx";
import { PreviewBanner } from "../../components/preview-banner.tsx";
import { Names } from "../../components/names.tsx";
import { loadVenture, loadVentureCards } from "../../data/content.server.ts";
import { loadItemPage, PREVIEW_HEADERS } from "../../data/preview.server.ts";
import type { Route } from "./+types/venture";

/**
 * Venture detail (spec §2); an unknown slug answers 404 "Venture not found.". A draft or scheduled venture is
 * shown as a preview to a signed-in user or with a shared link, never cached (issue #16).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const locale = toLocale(params.locale);
  const [page, all] = await Promise.all([
    loadItemPage(request, "venture", params.slug, (slug, reader) => loadVenture(slug, locale, reader)),
    loadVentureCards(locale, 4),
  ]);
  if (!page) throw data<NotFoundData>({ notFound: "ventures" }, { status: 404 });
  const venture = page.item;
  const loaded = { venture, preview: page.preview, others: all.filter((v) => v.slug !== venture.slug).slice(0, 3) };
  return page.preview ? data(loaded, { headers: PREVIEW_HEADERS }) : loaded;
}

/** A preview's `no-store` and `noindex` reach the document response. */
export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta(args: Route.MetaArgs) {
  if (!args.loaderData) return [];
  const { venture, preview } = args.loaderData;
  return pageMeta(args, {
    title: venture.name,
    description: venture.shortDescription,
    image: venture.image,
    locales: venture.locales,
    noindex: preview,
    ...(preview
      ? {}
      : {
          jsonLd: {
            "@context": "https://schema.org",
            "@type": "Organization",
            name: venture.name,
            description: venture.shortDescription,
            inLanguage: venture.locale,
            ...(venture.websiteURL ? { url: venture.websiteURL } : {}),
          },
        }),
  });
}

export default function VenturePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { venture, others, preview } = loaderData;
  const version = versionAttributes(venture.locale, locale);
  return (
    <article className="pb-12">
      {preview && <PreviewBanner />}
      <Link
        to={href("/:locale/ventures", { locale })}
        className="inline-flex items-center gap-2 pt-10 text-sm text-mist hover:text-gold"
      >
        <ArrowBack />
        {t("ventures.backToVentures")}
      </Link>
      <VersionNotice version={venture.locale} noun="ventures" />
      <div {...version}>
        <header className="mt-8 flex flex-col gap-6 sm:flex-row sm:items-center">
          {venture.image && (
            <MediaImage
              src={venture.image}
              alt={t("ventures.logoAlt", { name: venture.name })}
              slot="ventureLogo"
              className="size-24 rounded-2xl object-cover"
              priority
            />
          )}
          <div>
            {/* The version's own direction (its block's), not the first letter's: a Latin name on an Arabic page
                sits at the right beside its logo (issue #35). */}
            <h1 className="text-4xl font-bold">
              <Names text={venture.name} lang={venture.locale} />
            </h1>
            <p className="mt-3 max-w-2xl text-lg text-mist">
              <Names text={venture.shortDescription} lang={venture.locale} />
            </p>
          </div>
          {venture.websiteURL && (
            <a
              href={venture.websiteURL}
              rel="noopener noreferrer"
              className="inline-flex items-center justify-center gap-2 rounded-full bg-gold px-6 py-3 text-center font-semibold text-ink hover:bg-gold-soft sm:ms-auto"
            >
              {t("ventures.visitWebsite")}
              <ExternalIcon />
            </a>
          )}
        </header>
        <section aria-labelledby="case-study" className="mt-14 max-w-3xl">
          <h2 id="case-study" className="text-sm font-semibold tracking-widest text-gold uppercase">
            {t("ventures.howWeBuiltIt")}
          </h2>
          <div className="prose-body mt-6" dangerouslySetInnerHTML={{ __html: venture.caseStudyHtml }} />
        </section>
      </div>
      {others.length > 0 && (
        <section aria-labelledby="others" className="mt-20">
          <h2 id="others" className="mb-8 text-2xl font-bold">
            {t("ventures.exploreOthers")}
          </h2>
          <VentureGrid ventures={others} />
        </section>
      )}
    </article>
  );
}
