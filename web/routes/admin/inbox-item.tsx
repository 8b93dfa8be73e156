import { Form, Link, useActionData, useNavigation } from "react-router";
import { useLocale, useTranslation } from "../../hooks.ts";
import { InboxStateBadge, receivedAt } from "../../components/admin/inbox-list.tsx";
import { inboxItemAction, loadInboxItem } from "../../data/inbox-item.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/inbox-item";

/** One submission in the inbox (issue #31 item 1): see `inbox-item.server.ts`. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return loadInboxItem(request, params);
}

export async function action({ request, params }: Route.ActionArgs) {
  return inboxItemAction(request, params);
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.inbox.title");
}

function StateButton({ state, label, tone = "" }: { state: string; label: string; tone?: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="state" />
      <input type="hidden" name="state" value={state} />
      <button type="submit" className={`rounded-full border border-line px-4 py-2 text-sm hover:border-gold ${tone}`}>
        {label}
      </button>
    </Form>
  );
}

export default function AdminInboxItem({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { item, mail, mailOn, subject, mailto } = loaderData;
  const row = "grid gap-1 sm:grid-cols-[10rem_1fr]";
  const status = (s: { status: string; errors: string[] }) => (
    <span data-mail-status={s.status} className={s.status === "failed" ? "text-red-300" : ""}>
      {t(`admin.inbox.mailStatus.${s.status}`)}
      {s.errors.length > 0 && (
        <span className="block text-xs text-mist" dir="ltr">
          {s.errors.join(" · ")}
        </span>
      )}
    </span>
  );
  return (
    <article className="max-w-3xl">
      <Link to="/admin/inbox" className="text-sm text-gold hover:underline">
        {t("admin.inbox.back")}
      </Link>
      <h1 className="mt-4 flex flex-wrap items-center gap-3 text-2xl font-bold">
        <span dir="auto">{item.name}</span> <InboxStateBadge state={item.state} />
      </h1>
      {result && (
        <p
          role={result.ok ? "status" : "alert"}
          className={`mt-4 text-sm ${result.ok ? "text-emerald-300" : "text-red-400"}`}
        >
          {t(
            result.message,
            result.values?.state ? { state: t(`admin.inbox.states.${result.values.state}`) } : undefined,
          )}
        </p>
      )}
      <dl className="mt-6 space-y-3 text-sm">
        <div className={row}>
          <dt className="text-mist">{t("admin.inbox.kind")}</dt>
          <dd>{t(`admin.inbox.kinds.${item.kind}`)}</dd>
        </div>
        <div className={row}>
          <dt className="text-mist">{t("admin.inbox.email")}</dt>
          <dd dir="ltr" className="text-start break-all">
            {item.email}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-mist">{t("admin.inbox.language")}</dt>
          <dd>{t(`admin.inbox.languages.${item.locale === "ar" ? "ar" : "en"}`)}</dd>
        </div>
        <div className={row}>
          <dt className="text-mist">{t("admin.inbox.received")}</dt>
          <dd>
            <time dateTime={item.createdAt}>{receivedAt(item.createdAt, locale)}</time>
          </dd>
        </div>
        <div className={row}>
          <dt className="text-mist">{t("admin.inbox.mailTeam")}</dt>
          <dd>{status(mail.team)}</dd>
        </div>
        <div className={row}>
          <dt className="text-mist">{t("admin.inbox.mailSender")}</dt>
          <dd>{status(mail.sender)}</dd>
        </div>
      </dl>
      <h2 className="mt-8 text-sm text-mist">{t("admin.inbox.text")}</h2>
      <p className="mt-2 rounded-2xl border border-line p-4 whitespace-pre-wrap break-words" dir="auto" data-inbox-text>
        {item.text}
      </p>
      {!mailOn && (
        <p
          role="status"
          className="mt-4 rounded-xl border border-amber-500/50 p-3 text-sm text-amber-200"
          data-mail-off
        >
          {t("admin.inbox.mailOff")}
        </p>
      )}
      <div className="mt-6 flex flex-wrap gap-3">
        <a href={mailto} className="rounded-full bg-gold px-4 py-2 text-sm font-semibold text-ink">
          {t("admin.inbox.replyByMail")}
        </a>
        <StateButton state="archived" label={t("admin.inbox.archive")} />
        <StateButton state="spam" label={t("admin.inbox.markSpam")} />
        <StateButton state="new" label={t("admin.inbox.markNew")} />
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(t("admin.inbox.deleteOne"))) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" className="rounded-full border border-red-500/60 px-4 py-2 text-sm text-red-300">
            {t("admin.inbox.delete")}
          </button>
        </Form>
      </div>
      {mailOn && (
        <Form method="post" className="mt-8 space-y-3 rounded-2xl border border-line p-4" aria-labelledby="reply-title">
          <h2 id="reply-title" className="font-semibold">
            {t("admin.inbox.reply")}
          </h2>
          <input type="hidden" name="intent" value="reply" />
          <label className="block text-xs text-mist">
            {t("admin.inbox.replySubject")}
            <input
              name="subject"
              defaultValue={subject}
              maxLength={200}
              dir="auto"
              className="mt-1 w-full rounded-lg border border-line bg-ink px-3 py-2 text-sm text-white"
            />
          </label>
          <label className="block text-xs text-mist">
            {t("admin.inbox.replyBody")}
            <textarea
              name="body"
              rows={6}
              maxLength={10000}
              required
              dir="auto"
              className="mt-1 w-full rounded-lg border border-line bg-ink px-3 py-2 text-sm text-white"
            />
          </label>
          <button
            type="submit"
            disabled={navigation.state === "submitting"}
            className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink disabled:opacity-60"
          >
            {t("admin.inbox.sendReply")}
          </button>
        </Form>
      )}
    </article>
  );
}
