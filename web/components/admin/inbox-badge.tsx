import { useEffect, useState } from "react";
import { NavLink } from "react-router";
import { useTranslation } from "../../hooks.ts";

/**
 * The navigation's Inbox link with its unread count (issue #31 item 1), shown to studio members only. The
 * count starts from the layout's loader and then follows `/admin/inbox/events` (server-sent events the site
 * relays from Appwrite Realtime), so a submission arriving raises it without a reload.
 */
export function InboxNavLink({
  unread,
  className,
}: {
  unread: number;
  className: (s: { isActive: boolean }) => string;
}) {
  const { t } = useTranslation();
  const [count, setCount] = useState(unread);
  useEffect(() => setCount(unread), [unread]);
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/admin/inbox/events");
    source.addEventListener("unread", (event) => {
      const value = (JSON.parse((event as MessageEvent<string>).data) as { count?: unknown }).count;
      if (typeof value === "number") setCount(value);
    });
    return () => source.close();
  }, []);
  return (
    <NavLink to="/admin/inbox" className={className}>
      {t("admin.nav.inbox")}
      {count > 0 && (
        <span
          className="ms-2 inline-block min-w-6 rounded-full bg-gold px-1.5 text-center text-xs font-semibold text-ink"
          data-unread-count={count}
          aria-label={t("admin.inbox.unread", { count })}
        >
          {count}
        </span>
      )}
    </NavLink>
  );
}
