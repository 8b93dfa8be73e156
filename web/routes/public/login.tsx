import { useState } from "react";
import { useTranslation } from "../../hooks.ts";
import { Form, data, redirect, redirectDocument, useNavigation, useSearchParams } from "react-router";
import {
  COMMON_PASSWORD_MESSAGE,
  InvalidCredentialsError,
  PASSWORD_LENGTH,
  RegistrationError,
  register,
  signIn,
} from "../../../server/auth/account.ts";
import { getI18n, messagesFor } from "../../i18n/catalog.server.ts";
import { toLocale } from "../../i18n/i18n.ts";
import { translatorOf } from "../../i18n/t.ts";
import { getApiKeyServices } from "../../data/appwrite.server.ts";
import {
  authThrottle,
  clientIp,
  getSignedIn,
  localeCookie,
  registrationOpen,
  safeRedirect,
  startSession,
} from "../../data/session.server.ts";
import type { Route } from "./+types/login";

/** The login page redirects to /admin once a user exists (spec §2). */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (await getSignedIn(request)) throw redirect("/admin");
  const locale = toLocale(params.locale);
  return data(
    { registrationOpen: registrationOpen(), messages: messagesFor(locale, ["auth"]) },
    { headers: { "Set-Cookie": localeCookie(locale) } },
  );
}

/** The document response carries the action's `Retry-After` (throttling) and the loader's locale cookie. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const merged = new Headers(loaderHeaders);
  actionHeaders.forEach((value, key) => merged.set(key, value));
  return merged;
}

export function meta({ matches }: Route.MetaArgs) {
  const { t } = translatorOf(matches);
  return [{ title: `${t("auth.title")} | ${t("site.name")}` }, { name: "robots", content: "noindex" }];
}

type ActionResult = { error: string; mode: "login" | "register" };

/**
 * Login and registration (spec §4, §5): the site throttles failed logins and sign-ups itself (SECURITY C13,
 * C14); a success stores the Appwrite session secret in the site's cookie and goes to `redirectTo` or /admin.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { t } = getI18n(toLocale(params.locale));
  const form = await request.formData();
  const mode = form.get("intent") === "register" ? "register" : "login";
  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  const ip = clientIp(context);
  const fail = (error: string, status = 400, headers?: HeadersInit) =>
    data<ActionResult>({ error, mode }, { status, headers });
  if (!email || !password) return fail(t("auth.required"));

  const admin = getApiKeyServices();
  try {
    let session;
    if (mode === "register") {
      const decision = await authThrottle().checkSignUp(ip);
      if (!decision.allowed) return fail(t("auth.tooMany"), 429, { "Retry-After": String(decision.retryAfterSeconds) });
      const name = String(form.get("name") ?? "");
      if (!name.trim()) return fail(t("auth.nameRequired"));
      session = await register(admin, { name, email, password }, { openRegistration: registrationOpen() });
    } else {
      // Counted as a failure from here until the password is known right (SECURITY C64).
      const decision = await authThrottle().beginLogin(email, ip);
      if (!decision.allowed) return fail(t("auth.tooMany"), 429, { "Retry-After": String(decision.retryAfterSeconds) });
      try {
        session = await signIn(admin, email, password);
      } catch (error) {
        if (error instanceof InvalidCredentialsError) await decision.attempt.failed();
        else await decision.attempt.abandoned();
        throw error;
      }
      await decision.attempt.succeeded();
    }
    // A document load: the admin is another shell (no public header, its own locale), so the public layout
    // must not render the admin's path while it loads (its list skeletons would match /admin/ventures).
    const headers = new Headers({ "Set-Cookie": await startSession(request, session) });
    // The admin speaks the language the user chose in it (account prefs; issue #17 item 1), from any login page.
    if (session.adminLocale) headers.append("Set-Cookie", localeCookie(session.adminLocale));
    return redirectDocument(safeRedirect(form.get("redirectTo")), { headers });
  } catch (error) {
    if (error instanceof InvalidCredentialsError) return fail(t("auth.failed"), 401);
    if (error instanceof RegistrationError) return fail(registrationText(t, error.message));
    throw error;
  }
}

/**
 * A registration refusal (`RegistrationError`'s English message, server/auth/account.ts) in the page's language
 * (issue #29 item 7: registration's password error was English on /ar/login); an unknown one as it is.
 */
function registrationText(t: (key: string, values?: Record<string, number>) => string, message: string): string {
  const known: Record<string, string> = {
    [COMMON_PASSWORD_MESSAGE]: t("auth.commonPassword"),
    [`Password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters long.`]: t("auth.passwordLength", {
      min: PASSWORD_LENGTH.min,
      max: PASSWORD_LENGTH.max,
    }),
    "Registration is closed. Ask the site's owner for an account.": t("auth.registrationClosed"),
    "A user with the same email already exists. Sign in instead.": t("auth.emailTaken"),
  };
  return known[message] ?? message;
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [mode, setMode] = useState<"login" | "register">(actionData?.mode ?? "login");
  const busy = navigation.state === "submitting";
  const canRegister = loaderData.registrationOpen;
  const input = "w-full rounded-lg border border-line bg-ink px-3 py-2 text-sm focus:border-gold focus:outline-none";
  return (
    <section className="mx-auto max-w-md py-20">
      <h1 className="text-3xl font-bold">{mode === "login" ? t("auth.signIn") : t("auth.register")}</h1>
      <Form method="post" className="mt-8 space-y-4 rounded-2xl border border-line bg-panel p-6" noValidate>
        <input type="hidden" name="intent" value={mode} />
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/admin"} />
        {mode === "register" && (
          <div>
            <label htmlFor="name" className="mb-1 block text-sm">
              {t("auth.fullName")}
            </label>
            <input id="name" name="name" dir="auto" autoComplete="name" className={input} />
          </div>
        )}
        <div>
          <label htmlFor="email" className="mb-1 block text-sm">
            {t("auth.email")}
          </label>
          <input id="email" name="email" type="email" dir="ltr" autoComplete="email" required className={input} />
        </div>
        <div>
          <label htmlFor="password" className="mb-1 block text-sm">
            {t("auth.password")}
          </label>
          <input
            id="password"
            name="password"
            type="password"
            dir="ltr"
            autoComplete={mode === "login" ? "current-password" : "new-password"}
            required
            className={input}
          />
        </div>
        {actionData?.error && (
          <p role="alert" className="text-sm text-red-400">
            {actionData.error}
          </p>
        )}
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-full bg-gold py-2.5 font-semibold text-ink disabled:opacity-60"
        >
          {busy ? t("general.loading") : mode === "login" ? t("auth.signIn") : t("auth.register")}
        </button>
      </Form>
      {canRegister && (
        <button
          type="button"
          onClick={() => setMode(mode === "login" ? "register" : "login")}
          className="mt-4 text-sm text-gold hover:underline"
        >
          {mode === "login" ? t("auth.needAccount") : t("auth.haveAccount")}
        </button>
      )}
    </section>
  );
}
