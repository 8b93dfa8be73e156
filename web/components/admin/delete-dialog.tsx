import { useEffect, useRef } from "react";
import { useTranslation } from "../../hooks.ts";
import { useFetcher } from "react-router";
import { CONTENT_LOCALES, type ContentLocale } from "../../../model/locales.ts";

/**
 * The delete confirmation (spec §2, §4): titled "Confirm Deletion", asks to confirm and says what goes where
 * (issue #29 item 9: "Both versions (English, العربية) and their history move to the trash for 30 days", naming
 * the item's `versions`, default every locale), with Delete ("Deleting..." while busy) and Cancel. The list reloads after the deletion; a failure
 * is logged and the dialog closes (spec §8), and the list's flash message tells the editor (issue #17 item 3).
 */
export function DeleteDialog(props: {
  item: { id: string; label: string; versions?: readonly ContentLocale[] } | null;
  question: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; error?: string }>();
  const dialog = useRef<HTMLDialogElement>(null);
  const busy = fetcher.state !== "idle";
  const versions = props.item?.versions?.length ? props.item.versions : CONTENT_LOCALES;
  const names = versions.map((locale) => t(`admin.languages.${locale}`)).join(t("admin.trash.separator"));

  useEffect(() => {
    if (props.item && !dialog.current?.open) dialog.current?.showModal();
    if (!props.item && dialog.current?.open) dialog.current.close();
  }, [props.item]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) {
      if (!fetcher.data.ok) console.error("Delete failed:", fetcher.data.error);
      props.onClose();
    }
    // Closes once per completed submission.
  }, [fetcher.state, fetcher.data]);

  return (
    <dialog
      ref={dialog}
      onClose={props.onClose}
      aria-labelledby="delete-title"
      className="m-auto max-w-md rounded-2xl border border-line bg-panel p-6 text-white backdrop:bg-black/70"
    >
      <h2 id="delete-title" className="text-lg font-bold">
        {t("admin.confirmDeletion")}
      </h2>
      <p className="mt-3 text-sm text-mist">
        {props.question} <strong dir="auto">{props.item?.label}</strong>
        {t("admin.questionMark")}{" "}
        <span data-testid="delete-versions">
          {t(versions.length > 1 ? "admin.trash.dialogBoth" : "admin.trash.dialogOne", { versions: names })}
        </span>
      </p>
      <fetcher.Form method="post" className="mt-6 flex justify-end gap-3">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={props.item?.id ?? ""} />
        <input type="hidden" name="label" value={props.item?.label ?? ""} />
        <button type="button" onClick={props.onClose} className="rounded-full border border-line px-4 py-2 text-sm">
          {t("admin.cancel")}
        </button>
        <button
          type="submit"
          disabled={busy}
          className="rounded-full bg-red-600 px-4 py-2 text-sm font-semibold disabled:opacity-60"
        >
          {busy ? t("admin.deleting") : t("admin.delete")}
        </button>
      </fetcher.Form>
    </dialog>
  );
}
