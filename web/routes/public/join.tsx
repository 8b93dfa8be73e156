import { AppwriteException } from "node-appwrite";
import { data, Form, redirectDocument, useNavigation } from "react-router";
import { useTranslation } from "../../hooks.ts";
import { InvalidCredentialsError, PASSWORD_LENGTH, signIn } from "../../../server/auth/account.ts";
import { isCommonPassword } from "../../../server/auth/common-passwords.ts";
import { getApiKeyServices } from "../../data/appwrite.server.ts";
import { startSession } from "../../data/session.server.ts";
import { acceptInvitation, invitationOf, pendingInvitation } from "../../data/team.server.ts";
import { getI18n, messagesFor } from "../../i18n/catalog.server.ts";
import { toLocale } from "../../i18n/i18n.ts";
import type { Route } from "./+types/join";

/**
 * Accepting an invitation to the studio team (issue #28 item 2; Appwrite's membership flow): the link of the
 * invitation e-mail (or the one the owner copied) lands here with `membershipId`, `userId`, `secret` and
 * `teamId`. A new account (created by the invitation, no password yet) chooses its name and password; an
 * existing one gives its password. The secret is checked by Appwrite first (`updateMembershipStatus` as the
 * holder of the link), then the invitee is signed in and goes to the admin. A used or unknown invitation
 * shows that it is no longer valid.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const locale = toLocale(params.locale);
  const invitation = invitationOf(new URL(request.url));
  const pending = invitation ? await pendingInvitation(invitation) : null;
  return {
    invitee: pending ? { email: pending.email, name: pending.name, newAccount: !pending.hasPassword } : null,
    messages: messagesFor(locale, ["admin", "auth"]),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { t } = getI18n(toLocale(params.locale));
  const invitation = invitationOf(new URL(request.url));
  const pending = invitation ? await pendingInvitation(invitation) : null;
  if (!invitation || !pending) return data({ error: t("admin.team.accept.invalid") }, { status: 404 });
  const form = await request.formData();
  const password = String(form.get("password") ?? "");
  const name = String(form.get("name") ?? "").trim();
  const admin = getApiKeyServices();
  if (!pending.hasPassword) {
    if (!name) return data({ error: t("auth.nameRequired") }, { status: 400 });
    // Which rule the password breaks, in the page's language (issue #29 item 7): its length was told "too common".
    if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max) {
      return data(
        { error: t("auth.passwordLength", { min: PASSWORD_LENGTH.min, max: PASSWORD_LENGTH.max }) },
        { status: 400 },
      );
    }
    if (await isCommonPassword(password)) return data({ error: t("auth.commonPassword") }, { status: 400 });
  }
  try {
    // Appwrite checks the secret: only the holder of the invitation gets past this line.
    await acceptInvitation(invitation);
  } catch (error) {
    if (error instanceof AppwriteException && error.code < 500) {
      return data({ error: t("admin.team.accept.invalid") }, { status: 404 });
    }
    throw error;
  }
  if (!pending.hasPassword) {
    await admin.users.updatePassword({ userId: invitation.userId, password });
    await admin.users.updateName({ userId: invitation.userId, name });
  }
  try {
    const session = await signIn(admin, pending.email, password);
    return redirectDocument("/admin", { headers: { "Set-Cookie": await startSession(request, session) } });
  } catch (error) {
    // Joined; the password was wrong: they sign in on the login page like any member.
    if (error instanceof InvalidCredentialsError)
      return data({ error: t("admin.team.accept.wrongPassword") }, { status: 401 });
    throw error;
  }
}

export function meta() {
  return [{ name: "robots", content: "noindex" }];
}

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const busy = useNavigation().state === "submitting";
  const input = "w-full rounded-lg border border-line bg-ink px-3 py-2 text-sm focus:border-gold focus:outline-none";
  const invitee = loaderData.invitee;
  return (
    <section className="mx-auto max-w-md py-20">
      <h1 className="text-3xl font-bold">{t("admin.team.accept.title")}</h1>
      {!invitee ? (
        <p role="alert" className="mt-6 text-red-400">
          {t("admin.team.accept.invalid")}
        </p>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <p className="text-mist">
            {invitee.newAccount ? t("admin.team.accept.newAccount") : t("admin.team.accept.existing")}
          </p>
          <p dir="ltr" className="text-sm">
            {invitee.email}
          </p>
          {invitee.newAccount && (
            <label className="block text-sm">
              {t("admin.team.accept.name")}
              <input name="name" required defaultValue={invitee.name} autoComplete="name" className={input} />
            </label>
          )}
          <label className="block text-sm">
            {t("admin.team.accept.password")}
            <input
              type="password"
              name="password"
              required
              autoComplete={invitee.newAccount ? "new-password" : "current-password"}
              className={input}
            />
          </label>
          {actionData?.error && (
            <p role="alert" className="text-red-400">
              {actionData.error}
            </p>
          )}
          <button type="submit" disabled={busy} className="w-full rounded-lg bg-gold px-4 py-2 font-semibold text-ink">
            {t("admin.team.accept.submit")}
          </button>
        </Form>
      )}
    </section>
  );
}
