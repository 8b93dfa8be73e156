import { useTranslation } from "../hooks.ts";

/**
 * The banner over a draft or scheduled item shown at its public URL (issue #16 item 3): "Preview: not
 * public", in the page's language, with room between it and the back link under it (issue #35).
 */
export function PreviewBanner() {
  const { t } = useTranslation();
  return (
    <p
      role="status"
      className="my-6 rounded-xl border border-gold/60 bg-gold/10 px-4 py-3 text-sm font-semibold text-gold"
    >
      {t("general.previewBanner")}
    </p>
  );
}
