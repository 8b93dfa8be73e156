import { diffWords } from "diff";
import { useEffect, useState } from "react";
import { Form, useFetcher, useNavigation, useSearchParams } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import type { ContentKind } from "../../../model/model.ts";
import { fieldLabelKey } from "../../i18n/admin-labels.ts";
import type { HistoryData, HistoryEntry } from "../../data/history.server.ts";
import { intlLocaleOf, isLocale } from "../../i18n/i18n.ts";

/** `iso` as the admin shows a time: date and time in `locale`, in UTC (the same on the server and in the browser). */
function timeOf(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleString(isLocale(locale) ? intlLocaleOf(locale) : locale, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })} UTC`;
}

/** The word-level difference of one field, revision → current: removed words struck through, added underlined. */
function FieldDiff({ label, before, after }: { label: string; before: string; after: string }) {
  return (
    <div className="mt-3" data-field-diff>
      <p className="text-xs font-semibold text-mist">{label}</p>
      <p dir="auto" className="mt-1 whitespace-pre-wrap break-words rounded border border-line p-2 font-mono text-xs">
        {diffWords(before, after).map((part, i) =>
          part.removed ? (
            <del key={i} className="bg-red-500/20 text-red-200">
              {part.value}
            </del>
          ) : part.added ? (
            <ins key={i} className="bg-emerald-500/20 text-emerald-200">
              {part.value}
            </ins>
          ) : (
            <span key={i}>{part.value}</span>
          ),
        )}
      </p>
    </div>
  );
}

/** One revision: its time and who saved it, its changes against the current version on demand, and Restore. */
function RevisionRow({
  kind,
  itemId,
  revision,
  current,
}: {
  kind: ContentKind;
  itemId: string;
  revision: HistoryEntry;
  current: Record<string, string>;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigation = useNavigation();
  const [open, setOpen] = useState(false);
  // The text fields the server compares (`current`: the restorable ones), labelled as the form labels them.
  const changed = Object.keys(current).filter(
    (name) => name in revision.fields && (revision.fields[name] ?? "") !== (current[name] ?? ""),
  );
  const restoring = navigation.state === "submitting" && navigation.formData?.get("revisionId") === revision.id;
  return (
    <li className="border-t border-line py-3" data-revision={revision.id}>
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm">
          <time dateTime={revision.savedAt}>{timeOf(revision.savedAt, locale)}</time>
          {" · "}
          {t("admin.history.savedBy", { name: revision.savedBy ?? t("admin.history.unknown") })}
        </span>
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="text-sm text-gold underline"
        >
          {open ? t("admin.history.hideChanges") : t("admin.history.showChanges")}
        </button>
        {/* A native post: the edit page loads afresh with the restored version. */}
        <Form method="post" action="/admin/history" reloadDocument className="ms-auto">
          <input type="hidden" name="kind" value={kind} />
          <input type="hidden" name="id" value={itemId} />
          <input type="hidden" name="revisionId" value={revision.id} />
          <button
            type="submit"
            disabled={restoring}
            className="rounded-full border border-gold/60 px-4 py-1.5 text-sm font-semibold text-gold disabled:opacity-60"
          >
            {restoring ? t("admin.history.restoring") : t("admin.history.restore")}
          </button>
        </Form>
      </div>
      {open && (
        <div>
          {changed.length === 0 ? (
            <p className="mt-2 text-sm text-mist">{t("admin.history.same")}</p>
          ) : (
            <>
              <p className="mt-2 text-xs text-mist">{t("admin.history.legend")}</p>
              {changed.map((name) => (
                <FieldDiff
                  key={name}
                  label={t(fieldLabelKey(kind, name))}
                  before={revision.fields[name] ?? ""}
                  after={current[name] ?? ""}
                />
              ))}
            </>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * The edit page's history (issue #16 item 4): the item's earlier versions (time, who saved), each one's
 * difference from the current version's text fields, and a button restoring it (itself kept as a new version).
 * Loads from `/admin/history` once mounted; after a restore the page shows which version came back.
 * @param kind the item's kind; @param itemId its document id (each language version has its own history).
 */
export function HistoryPanel({ kind, itemId }: { kind: ContentKind; itemId: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const fetcher = useFetcher<HistoryData>();
  const [params] = useSearchParams();
  const { load } = fetcher;
  useEffect(() => {
    void load(`/admin/history?kind=${kind}&id=${encodeURIComponent(itemId)}`);
  }, [load, kind, itemId]);
  const restored = params.get("restored");
  const failed = params.get("restoreFailed");
  const history = fetcher.data;
  return (
    <section aria-labelledby="history-title" className="mt-12 rounded-lg border border-line p-5" data-history>
      <h2 id="history-title" className="text-xl font-bold">
        {t("admin.history.title")}
      </h2>
      <p className="mt-1 text-sm text-mist">{t("admin.history.intro")}</p>
      {restored && (
        <p role="status" className="mt-3 text-sm text-emerald-300">
          {t("admin.history.restored", { time: timeOf(restored, locale) })}
        </p>
      )}
      {failed && (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {t("admin.history.restoreFailed", { reason: failed })}
        </p>
      )}
      {!history && <p className="mt-3 text-sm text-mist">{t("admin.history.loading")}</p>}
      {history && "error" in history && (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {t("admin.history.loadFailed")}
        </p>
      )}
      {history && "revisions" in history && history.revisions.length === 0 && (
        <p className="mt-3 text-sm text-mist">{t("admin.history.empty")}</p>
      )}
      {history && "revisions" in history && history.revisions.length > 0 && (
        <ol className="mt-3">
          {history.revisions.map((revision) => (
            <RevisionRow key={revision.id} kind={kind} itemId={itemId} revision={revision} current={history.current} />
          ))}
        </ol>
      )}
    </section>
  );
}
