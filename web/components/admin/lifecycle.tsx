import { useState } from "react";
import { Link } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { formatDate } from "../../../lib/text/dates.ts";
import { ITEM_STATES, type ItemState } from "../../../model/lifecycle.ts";

/** An item's state as a small label: Published, Scheduled or Draft (issue #16). */
export function StateBadge({ state }: { state: ItemState }) {
  const { t } = useTranslation();
  const tone =
    state === "published"
      ? "border-emerald-500/50 text-emerald-300"
      : state === "scheduled"
        ? "border-sky-500/50 text-sky-300"
        : "border-line text-mist";
  return (
    <span className={`inline-block rounded-full border px-2.5 py-0.5 text-xs ${tone}`} data-state={state}>
      {t(`admin.lifecycle.states.${state}`)}
    </span>
  );
}

/** Links filtering a list by state (`?state=`; `href` builds each link, keeping the rest of a list's query), the current one marked. */
export function StateFilter(props: {
  base: string;
  current: ItemState | null;
  href?: (state: ItemState | null) => string;
}) {
  const { base, current, href = (state) => (state ? `${base}?state=${state}` : base) } = props;
  const { t } = useTranslation();
  const options: (ItemState | null)[] = [null, ...ITEM_STATES];
  return (
    <nav aria-label={t("admin.lifecycle.filter")} className="mt-6 flex flex-wrap gap-2 text-sm">
      {options.map((state) => (
        <Link
          key={state ?? "all"}
          to={href(state)}
          aria-current={state === current ? "page" : undefined}
          className={`rounded-full border px-3 py-1 ${state === current ? "border-gold text-gold" : "border-line text-mist"}`}
        >
          {state ? t(`admin.lifecycle.states.${state}`) : t("admin.lifecycle.all")}
        </Link>
      ))}
    </nav>
  );
}

/**
 * "Save draft", and "Unpublish" for an item that is published or scheduled, beside the spec's submit button:
 * submit buttons posting `intent` (`draft`, `unpublish`) with the form.
 */
export function LifecycleButtons({ state, disabled }: { state: ItemState | null; disabled: boolean }) {
  const { t } = useTranslation();
  const style = "rounded-full border border-gold/60 px-5 py-2.5 text-sm font-semibold text-gold disabled:opacity-60";
  return (
    <>
      <button type="submit" name="intent" value="draft" disabled={disabled} className={style}>
        {t("admin.lifecycle.saveDraft")}
      </button>
      {state && state !== "draft" && (
        <button type="submit" name="intent" value="unpublish" disabled={disabled} className={style}>
          {t("admin.lifecycle.unpublish")}
        </button>
      )}
    </>
  );
}

/**
 * The edit page's lifecycle line: the item's state and, when it is not public, "Share preview", which asks
 * the server for a link signed for this document (valid 7 days) and shows it to copy, and "Revoke preview
 * links", which ends every link shared so far (issue #28 item 4).
 */
export function LifecyclePanel(props: {
  kind: string;
  itemId: string;
  state: ItemState;
  /** A scheduled item's time (ISO) and the site's zone, said beside its state (issue #29 item 2). */
  publishAt?: string | null;
  timeZone?: string;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [link, setLink] = useState<{ url: string; expires: string } | null>(null);
  const [revoked, setRevoked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ask = async (intent: "share" | "revoke") => {
    setError(null);
    try {
      const response = await fetch("/admin/preview-link", {
        method: "POST",
        body: new URLSearchParams({ kind: props.kind, id: props.itemId, intent }),
      });
      const body = (await response.json()) as { url?: string; expires?: string; error?: string; revoked?: boolean };
      if (!response.ok || (!body.url && !body.revoked)) throw new Error(body.error ?? t("general.error"));
      setRevoked(Boolean(body.revoked));
      setLink(body.url ? { url: body.url, expires: body.expires ?? "" } : null);
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      <span className="text-mist">{t("admin.lifecycle.state")}</span>
      <StateBadge state={props.state} />
      {props.state === "scheduled" && props.publishAt && (
        <span data-scheduled-for={props.publishAt}>
          {t("admin.publish.scheduledFor", { date: formatDate(props.publishAt, "moment", locale, props.timeZone) })}
        </span>
      )}
      {props.state !== "published" && (
        <>
          <button type="button" onClick={() => void ask("share")} className="text-gold hover:underline">
            {t("admin.lifecycle.sharePreview")}
          </button>
          <button type="button" onClick={() => void ask("revoke")} className="text-mist hover:underline">
            {t("admin.lifecycle.revokePreviews")}
          </button>
        </>
      )}
      {link && (
        <p className="w-full">
          <input
            readOnly
            aria-label={t("admin.lifecycle.sharePreview")}
            value={link.url}
            dir="ltr"
            className="w-full rounded-lg border border-line bg-panel px-3 py-2 font-mono text-xs"
            onFocus={(e) => e.currentTarget.select()}
          />
          <span className="mt-1 block text-mist">{t("admin.lifecycle.shareHint", { date: link.expires })}</span>
        </p>
      )}
      {revoked && (
        <p role="status" className="w-full text-mist">
          {t("admin.lifecycle.previewsRevoked")}
        </p>
      )}
      {error && (
        <p role="alert" className="w-full text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
