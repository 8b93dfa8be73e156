import { AppwriteException } from "node-appwrite";
import { data, Form, useNavigation } from "react-router";
import { useTranslation } from "../../hooks.ts";
import { requireOwner } from "../../data/access.server.ts";
import { siteOrigin } from "../../data/origin.server.ts";
import { preferredLocale, requireUser } from "../../data/session.server.ts";
import {
  changeRole,
  inviteMember,
  LastOwnerError,
  listTeam,
  removeMember,
  type TeamMember,
} from "../../data/team.server.ts";
import { getI18n } from "../../i18n/catalog.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import { isStudioRole, STUDIO_ROLES } from "../../../model/team.ts";
import type { Route } from "./+types/team-members";
import { getApiKeyServices } from "../../data/appwrite.server.ts";
import { setSiteTimeZone, siteTimeZone } from "../../../lib/publish/site-time-zone.ts";
import { isTimeZone, zoneLabel } from "../../../lib/text/time-zone.ts";
import { SiteTimeZoneForm } from "../../components/admin/site-time-zone.tsx";

/**
 * The Team page (issue #28 item 2), the owner's only (404 for anyone else): the studio team's members with
 * their role, pending invitations, invite by e-mail with a role, change a role, remove a member; never the
 * last owner. Without mail (the embedded server) an invitation's link is shown to copy. Below, the site's
 * time zone (issue #29 item 2), which only an owner sets.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  await requireOwner(user);
  const client = getApiKeyServices().client;
  // The zones the server knows (issue #29 item 2), UTC first; the current one even if this runtime lacks it.
  // Each with its offset now as the server reckons it (it runs the schedules): the browser's time zone data can
  // differ (Chromium's and Node's ICU disagreed on six zones' offsets), and a label computed on each side would
  // not hydrate, so the labels are data.
  const zone = await siteTimeZone(client);
  const now = Date.now();
  const zones = [...new Set(["UTC", zone, ...Intl.supportedValuesOf("timeZone")])].map((id) => ({
    id,
    label: zoneLabel(id, now),
  }));
  return { members: await listTeam(), me: user.id, timeZone: zone, zones };
}

/** What the page's forms answer: a confirmation (with an invitation link to copy) or an error. */
type TeamReply = { ok: boolean; message: string; link?: string | null };

export async function action({ request }: Route.ActionArgs) {
  const { user, secret } = await requireUser(request);
  await requireOwner(user);
  const { t } = getI18n(preferredLocale(request));
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const role = String(form.get("role") ?? "");
  const membershipId = String(form.get("membershipId") ?? "");
  const reply = (body: TeamReply, status = 200) => data(body, { status });
  try {
    if (intent === "invite") {
      const email = String(form.get("email") ?? "")
        .trim()
        .toLowerCase();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254 || !isStudioRole(role)) {
        return reply({ ok: false, message: t("admin.team.badEmail") }, 400);
      }
      const acceptUrl = `${siteOrigin(request)}/${preferredLocale(request)}/join`;
      const link = await inviteMember(secret, email, role, acceptUrl);
      const message = link ? t("admin.team.inviteLink", { email }) : t("admin.team.invited", { email });
      return reply({ ok: true, message, link });
    }
    if (intent === "role" && isStudioRole(role) && membershipId) {
      await changeRole(secret, membershipId, role);
      return reply({ ok: true, message: t("admin.team.roleChanged") });
    }
    if (intent === "timeZone") {
      const zone = String(form.get("timeZone") ?? "").trim();
      if (!isTimeZone(zone)) return reply({ ok: false, message: t("admin.team.timeZoneBad") }, 400);
      await setSiteTimeZone(getApiKeyServices().client, zone);
      return reply({ ok: true, message: t("admin.team.timeZoneSaved", { zone: zoneLabel(zone) }) });
    }
    if (intent === "remove" && membershipId) {
      await removeMember(secret, membershipId);
      return reply({ ok: true, message: t("admin.team.removed") });
    }
    return reply({ ok: false, message: t("admin.errors.badRequest") }, 400);
  } catch (error) {
    if (error instanceof LastOwnerError) return reply({ ok: false, message: t("admin.team.lastOwner") }, 409);
    console.error("[team] changing the team failed:", error);
    const status = error instanceof AppwriteException && error.code < 500 ? error.code : 500;
    return reply({ ok: false, message: t("admin.team.failed") }, status);
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.team.title");
}

function MemberRow({ member, me }: { member: TeamMember; me: string }) {
  const { t } = useTranslation();
  return (
    <tr className="border-t border-line" data-member={member.email}>
      <td className="p-3" dir="auto">
        {member.name} {member.userId === me && <span className="text-mist">{t("admin.team.you")}</span>}
      </td>
      <td className="p-3" dir="ltr">
        {member.email}
      </td>
      <td className="p-3">{t(`admin.team.roles.${member.role}`)}</td>
      <td className="p-3">
        <div className="flex flex-wrap items-center gap-3">
          {!member.pending && (
            <Form method="post" className="flex items-center gap-2">
              <input type="hidden" name="intent" value="role" />
              <input type="hidden" name="membershipId" value={member.membershipId} />
              <select
                name="role"
                defaultValue={member.role}
                aria-label={t("admin.team.role")}
                className="rounded border border-line bg-panel px-2 py-1"
              >
                {STUDIO_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {t(`admin.team.roles.${r}`)}
                  </option>
                ))}
              </select>
              <button type="submit" className="text-gold hover:underline">
                {t("admin.team.changeRole")}
              </button>
            </Form>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="membershipId" value={member.membershipId} />
            <button type="submit" className="text-red-400 hover:underline">
              {member.pending ? t("admin.team.cancelInvite") : t("admin.team.remove")}
            </button>
          </Form>
        </div>
      </td>
    </tr>
  );
}

function MemberTable({ members, me, caption }: { members: TeamMember[]; me: string; caption: string }) {
  const { t } = useTranslation();
  return (
    <table className="mt-3 w-full text-start text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-mist">
          <th className="p-3 text-start">{t("admin.team.name")}</th>
          <th className="p-3 text-start">{t("admin.team.email")}</th>
          <th className="p-3 text-start">{t("admin.team.role")}</th>
          <th className="p-3 text-start">{t("admin.team.actions")}</th>
        </tr>
      </thead>
      <tbody>
        {members.map((m) => (
          <MemberRow key={m.membershipId} member={m} me={me} />
        ))}
      </tbody>
    </table>
  );
}

export default function TeamPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const members = loaderData.members.filter((m) => !m.pending);
  const pending = loaderData.members.filter((m) => m.pending);
  return (
    <div className="max-w-4xl">
      <h1 className="text-3xl font-bold">{t("admin.team.title")}</h1>
      <p className="mt-2 text-mist">{t("admin.team.intro")}</p>
      {actionData && (
        <div role={actionData.ok ? "status" : "alert"} className={`mt-4 ${actionData.ok ? "" : "text-red-400"}`}>
          <p>{actionData.message}</p>
          {actionData.link && (
            <input
              readOnly
              aria-label={t("admin.team.inviteTitle")}
              value={actionData.link}
              dir="ltr"
              className="mt-2 w-full rounded-lg border border-line bg-panel px-3 py-2 font-mono text-xs"
              onFocus={(e) => e.currentTarget.select()}
            />
          )}
        </div>
      )}
      <h2 className="mt-8 text-xl font-semibold">{t("admin.team.members")}</h2>
      <MemberTable members={members} me={loaderData.me} caption={t("admin.team.members")} />
      <h2 className="mt-8 text-xl font-semibold">{t("admin.team.pending")}</h2>
      {pending.length === 0 ? (
        <p className="mt-3 text-mist">{t("admin.team.noPending")}</p>
      ) : (
        <MemberTable members={pending} me={loaderData.me} caption={t("admin.team.pending")} />
      )}
      <h2 className="mt-8 text-xl font-semibold">{t("admin.team.inviteTitle")}</h2>
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="invite" />
        <label className="flex flex-col gap-1 text-sm">
          {t("admin.team.email")}
          <input
            type="email"
            name="email"
            required
            dir="ltr"
            autoComplete="off"
            className="rounded-lg border border-line bg-panel px-3 py-2"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t("admin.team.role")}
          <select name="role" defaultValue="editor" className="rounded-lg border border-line bg-panel px-3 py-2">
            {STUDIO_ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.team.roles.${r}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy} className="rounded-lg bg-gold px-4 py-2 font-semibold text-ink">
          {busy ? t("admin.team.inviting") : t("admin.team.invite")}
        </button>
      </Form>
      <SiteTimeZoneForm zone={loaderData.timeZone} zones={loaderData.zones} busy={busy} />
    </div>
  );
}
