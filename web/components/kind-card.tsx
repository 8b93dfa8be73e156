import { Link } from "react-router";
import { useLocale, useTranslation } from "../hooks.ts";
import { formatLongDate, type Locale } from "../i18n/i18n.ts";
import { CARD_BOX } from "./cards.tsx";
import { MediaImage } from "./media-image.tsx";
import { Names } from "./names.tsx";
import { VersionNotice, versionAttributes } from "./version-notice.tsx";
import type { KindCard, ShownField } from "../data/kind-pages.server.ts";

/** A field's value as a page in `locale` shows it: a date in the long form, other values as they are. */
export function shownValue(field: ShownField, locale: Locale): string {
  return field.type === "date" ? formatLongDate(field.value, locale) : field.value;
}

/**
 * An item of a kind without cards of its own (`routes/public/kind-list.tsx`), in the post card's shape: image,
 * short fields (dates first as in a post's card), title, description, the link to its page (`/<locale>/<path>/<slug>`).
 * `path` is the kind's public path, which names its messages (`<path>.readMore`, `<path>.onlyIn.*`).
 */
export function KindCardItem({ item, path }: { item: KindCard; path: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className={CARD_BOX.post} {...versionAttributes(item.locale, locale)}>
      {item.image && (
        <MediaImage src={item.image} alt="" slot="postCard" className={`${CARD_BOX.postImage} object-cover`} />
      )}
      <div className={CARD_BOX.postBody}>
        {item.fields.map((field) => (
          <p key={field.name} className={`${CARD_BOX.postDate} text-mist`}>
            {field.type === "date" ? (
              <time dateTime={field.value}>{shownValue(field, locale)}</time>
            ) : (
              <Names text={field.value} lang={item.locale} />
            )}
          </p>
        ))}
        <h3 className={CARD_BOX.postTitle}>
          <Link to={`/${locale}/${path}/${encodeURIComponent(item.slug)}`} className="after:absolute after:inset-0">
            <Names text={item.title} lang={item.locale} />
          </Link>
        </h3>
        {item.description && (
          <p className={`${CARD_BOX.postText} text-mist`}>
            <Names text={item.description} lang={item.locale} />
          </p>
        )}
        <VersionNotice version={item.locale} noun={path} className="mt-3 text-xs text-mist" />
        <span className={`${CARD_BOX.readMore} text-gold group-hover:underline`}>{t(`${path}.readMore`)}</span>
      </div>
    </li>
  );
}

/** A grid of `items` (`KindCardItem`), or the kind's `<path>.empty` text when there are none. */
export function KindGrid({ items, path }: { items: KindCard[]; path: string }) {
  const { t } = useTranslation();
  if (items.length === 0) return <p className="text-mist">{t(`${path}.empty`)}</p>;
  return (
    <ul className={CARD_BOX.grid}>
      {items.map((item) => (
        <KindCardItem key={`${item.slug}:${item.locale}`} item={item} path={path} />
      ))}
    </ul>
  );
}
