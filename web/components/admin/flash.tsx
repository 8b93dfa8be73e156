import { useState } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "../../hooks.ts";

/** A flash message as the admin layout's loader sends it (`takeFlash` in `admin-flash.server.ts`). */
export interface Flash {
  id: string;
  tone: "success" | "error";
  text: string;
}

/**
 * The admin's flash region (issue #17 item 3): a polite live region (`role="status"`), always in the page so a
 * screen reader announces what is put in it, holding the confirmation of the last save, publish, delete or
 * account change, or why a delete failed. It is shown on the page the editor landed on, and gone once they
 * move on (the layout's data is not reloaded by every navigation, so it would otherwise follow them) or
 * dismiss it. Dismissing is a link to the same page: without JavaScript it reloads the page, which no longer
 * has the message (the server cleared it when it was first shown).
 */
export function FlashMessage({ flash }: { flash: Flash | null }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [shown, setShown] = useState({ id: flash?.id ?? null, key: location.key });
  const [dismissed, setDismissed] = useState<string | null>(null);
  if ((flash?.id ?? null) !== shown.id) setShown({ id: flash?.id ?? null, key: location.key });
  // Left behind by a navigation: not shown again, even when the editor comes back with the Back button.
  if (flash && shown.id === flash.id && location.key !== shown.key && dismissed !== flash.id) setDismissed(flash.id);
  const visible = flash && shown.id === flash.id && dismissed !== flash.id && location.key === shown.key;
  const tone =
    flash?.tone === "error"
      ? "border-red-500/60 bg-red-950/40 text-red-200"
      : "border-emerald-500/60 bg-emerald-950/40 text-emerald-200";
  return (
    <div role="status" aria-live="polite" aria-atomic="true" data-flash={visible ? flash.tone : undefined}>
      {visible && (
        <div className={`mb-6 flex items-start justify-between gap-4 rounded-xl border px-4 py-3 text-sm ${tone}`}>
          <p>{flash.text}</p>
          <a
            href={location.pathname + location.search}
            aria-label={t("admin.flash.dismiss")}
            title={t("admin.flash.dismiss")}
            className="shrink-0 rounded p-1 opacity-80 hover:opacity-100"
            onClick={(event) => {
              event.preventDefault();
              setDismissed(flash.id);
            }}
          >
            {/* Drawn, not a "×" character: the region's text is the message alone. */}
            <svg aria-hidden viewBox="0 0 16 16" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M3 3l10 10M13 3L3 13" />
            </svg>
          </a>
        </div>
      )}
    </div>
  );
}
