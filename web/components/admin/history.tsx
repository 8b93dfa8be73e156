import { useEffect, useRef, useState } from "react";
import { Form, useFetcher, useNavigation, useSearchParams } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import type { ContentKind, ContentLocale } from "../../../model/model.ts";
import { fieldLabelKey } from "../../i18n/admin-labels.ts";
import type { HistoryData, HistoryEntry } from "../../data/history.server.ts";
import { FieldDiff } from "./field-diff.tsx";
import { momentText } from "../../i18n/history-dates.ts";
import { unsavedKey } from "./unsaved.tsx";

/** One language version of the item whose history is shown: its locale and document id. */
export interface HistoryVersion {
  locale: ContentLocale;
  id: string;
  /** Its `$updatedAt` as the page knows it: when a save on the page changes it, its history loads again. */
  updatedAt?: string | null;
}

/**
 * One revision: its time and who saved it, its changes against the current version on demand (a word diff in
 * the version's language), and Restore, which asks first in a modal dialog naming the version and its time.
 * Without JavaScript the Restore button posts the form itself.
 */
function RevisionRow(props: {
  kind: ContentKind;
  editId: string;
  version: HistoryVersion;
  revision: HistoryEntry;
  current: Record<string, string>;
}) {
  const { kind, editId, version, revision, current } = props;
  const { t } = useTranslation();
  const locale = useLocale();
  const navigation = useNavigation();
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  // The text fields the server compares (`current`: the restorable ones), labelled as the form labels them.
  const changed = Object.keys(current).filter(
    (name) => name in revision.fields && (revision.fields[name] ?? "") !== (current[name] ?? ""),
  );
  const restoring = navigation.state === "submitting" && navigation.formData?.get("revisionId") === revision.id;
  const when = momentText(revision.savedAt, locale);
  const titleId = `restore-title-${revision.id}`;
  return (
    <li className="border-t border-line py-3" data-revision={revision.id}>
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm">
          <time dateTime={revision.savedAt}>{when}</time>
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
        {/* A native post: the edit page loads afresh with the restored version and the flash at the top. */}
        <Form method="post" action="/admin/history" reloadDocument className="ms-auto">
          <input type="hidden" name="kind" value={kind} />
          <input type="hidden" name="id" value={version.id} />
          <input type="hidden" name="editId" value={editId} />
          <input type="hidden" name="revisionId" value={revision.id} />
          <button
            type="submit"
            disabled={restoring}
            onClick={(event) => {
              event.preventDefault();
              dialog.current?.showModal();
            }}
            className="rounded-full border border-gold/60 px-4 py-1.5 text-sm font-semibold text-gold disabled:opacity-60"
          >
            {restoring ? t("admin.history.restoring") : t("admin.history.restore")}
          </button>
          <dialog
            ref={dialog}
            aria-labelledby={titleId}
            className="m-auto max-w-md rounded-2xl border border-line bg-panel p-6 text-white backdrop:bg-black/70"
          >
            <h2 id={titleId} className="text-lg font-bold">
              {t("admin.history.confirmTitle")}
            </h2>
            <p className="mt-3 text-sm text-mist">
              {t("admin.history.confirmText", {
                language: t(`admin.languages.inSentence.${version.locale}`),
                time: when,
                name: revision.savedBy ?? t("admin.history.unknown"),
              })}
            </p>
            <div className="mt-6 flex flex-wrap justify-end gap-3">
              <button
                type="button"
                onClick={() => dialog.current?.close()}
                className="rounded-full border border-line px-4 py-2 text-sm"
              >
                {t("admin.cancel")}
              </button>
              <button
                type="submit"
                disabled={restoring}
                // What was typed on the page is replaced by the restored version: not put back after the reload.
                onClick={() => localStorage.removeItem(unsavedKey(kind, editId))}
                className="rounded-full bg-gold px-4 py-2 text-sm font-semibold text-ink disabled:opacity-60"
              >
                {restoring ? t("admin.history.restoring") : t("admin.history.confirmRestore")}
              </button>
            </div>
          </dialog>
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
                  kind={kind}
                  name={name}
                  label={t(fieldLabelKey(kind, name))}
                  before={revision.fields[name] ?? ""}
                  after={current[name] ?? ""}
                  textLocale={version.locale}
                  locale={locale}
                />
              ))}
            </>
          )}
        </div>
      )}
    </li>
  );
}

/** The history of one language version, loaded from `/admin/history` once mounted. */
function VersionHistory(props: { kind: ContentKind; editId: string; version: HistoryVersion; labelled: boolean }) {
  const { kind, editId, version } = props;
  const { t } = useTranslation();
  const fetcher = useFetcher<HistoryData>();
  const { load } = fetcher;
  useEffect(() => {
    void load(`/admin/history?kind=${kind}&id=${encodeURIComponent(version.id)}`);
  }, [load, kind, version.id, version.updatedAt]);
  const history = fetcher.data;
  const headingId = `history-${version.locale}`;
  return (
    <section
      aria-labelledby={props.labelled ? headingId : undefined}
      className="mt-4"
      data-history-version={version.locale}
    >
      {props.labelled && (
        <h3 id={headingId} lang={version.locale} className="text-base font-semibold text-gold">
          {t(`admin.languages.${version.locale}`)}
        </h3>
      )}
      {!history && <p className="mt-2 text-sm text-mist">{t("admin.history.loading")}</p>}
      {history && "error" in history && (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {t("admin.history.loadFailed")}
        </p>
      )}
      {history && "revisions" in history && history.revisions.length === 0 && (
        <p className="mt-2 text-sm text-mist">{t("admin.history.empty")}</p>
      )}
      {history && "revisions" in history && history.revisions.length > 0 && (
        <ol className="mt-2">
          {history.revisions.map((revision) => (
            <RevisionRow
              key={revision.id}
              kind={kind}
              editId={editId}
              version={version}
              revision={revision}
              current={history.current}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * The edit page's history (issue #16 item 4, issue #29 item 4): per language version of the item, labelled by
 * language when there are several (each document keeps its own revisions), the earlier versions (time, who
 * saved), each one's word difference from the current version's text fields, and a Restore that asks first and
 * is itself kept as a new version; the restore is confirmed by the admin's flash at the top of the page.
 * @param kind the item's kind; @param editId the edit page's document id; @param versions the item's language
 * versions that exist, the edit page's first.
 */
export function HistoryPanel({
  kind,
  editId,
  versions,
}: {
  kind: ContentKind;
  editId: string;
  versions: HistoryVersion[];
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const failed = params.get("restoreFailed");
  return (
    <section aria-labelledby="history-title" className="mt-12 rounded-lg border border-line p-5" data-history>
      <h2 id="history-title" className="text-xl font-bold">
        {t("admin.history.title")}
      </h2>
      <p className="mt-1 text-sm text-mist">{t("admin.history.intro")}</p>
      {failed && (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {t("admin.history.restoreFailed", { reason: failed })}
        </p>
      )}
      {versions.map((version) => (
        <VersionHistory key={version.id} kind={kind} editId={editId} version={version} labelled={versions.length > 1} />
      ))}
    </section>
  );
}
