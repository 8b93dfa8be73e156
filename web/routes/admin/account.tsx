import { useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "../../hooks.ts";
import { redirect, useFetcher, type FetcherWithComponents } from "react-router";
import {
  AccountUpdateError,
  COMMON_PASSWORD_MESSAGE,
  PASSWORD_LENGTH,
  updateName,
  updatePassword,
} from "../../../server/auth/account.ts";
import { Field } from "../../components/admin/fields.tsx";
import { setFlash } from "../../data/admin-flash.server.ts";
import { appwriteLocation } from "../../data/appwrite.server.ts";
import { requireUser } from "../../data/session.server.ts";
import { adminTitle } from "../../i18n/admin-title.ts";
import type { Route } from "./+types/account";

export async function loader({ request }: Route.LoaderArgs) {
  const { user } = await requireUser(request);
  return { user };
}

export function meta({ matches }: Route.MetaArgs) {
  return adminTitle(matches, "admin.nav.account");
}

/**
 * `key` names a message under `admin.account` (spec §5/§8 texts) with its `values`; `message` is shown as is
 * otherwise (a text the account module has no key for).
 */
type Result = {
  intent: "name" | "password";
  ok: boolean;
  key?: string;
  values?: Record<string, number>;
  message?: string;
};

const MESSAGE_KEYS: Record<string, string> = {
  "Name is required.": "nameRequired",
  "Failed to update name.": "nameFailed",
  "Current password is required to change your password.": "currentRequired",
  "New passwords do not match.": "mismatch",
  "Failed to update password.": "passwordFailed",
  "Failed to update password. The current password is wrong.": "passwordWrong",
  [`Password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters long.`]: "passwordLength",
  [COMMON_PASSWORD_MESSAGE]: "commonPassword",
};
const failure = (intent: Result["intent"], error: unknown, fallback: string): Result => {
  const message = error instanceof AccountUpdateError ? error.message : fallback;
  const key = MESSAGE_KEYS[message];
  return key ? { intent, ok: false, key, values: { ...PASSWORD_LENGTH } } : { intent, ok: false, message };
};

/**
 * A success goes back to the account page with its message as the admin's flash (issue #17 item 3): one
 * success message at a time, read by screen readers, gone on reload, with or without JavaScript.
 */
async function succeeded(request: Request, event: "nameUpdated" | "passwordUpdated"): Promise<never> {
  throw redirect("/admin/account", { headers: { "Set-Cookie": await setFlash(request, { event }) } });
}

/**
 * Name and password changes with the user's session (spec §2 account page, §5 rules, §8 messages). A failure
 * is returned for its form; a success redirects with a flash message (`succeeded`).
 */
export async function action({ request }: Route.ActionArgs): Promise<Result> {
  const { secret } = await requireUser(request);
  const form = await request.formData();
  const target = appwriteLocation();
  if (form.get("intent") === "name") {
    try {
      await updateName(target, secret, String(form.get("name") ?? ""));
    } catch (error) {
      return failure("name", error, "Failed to update name.");
    }
    return succeeded(request, "nameUpdated");
  }
  try {
    await updatePassword(target, secret, {
      current: String(form.get("currentPassword") ?? ""),
      next: String(form.get("newPassword") ?? ""),
      confirm: String(form.get("confirmPassword") ?? ""),
    });
  } catch (error) {
    return failure("password", error, "Failed to update password.");
  }
  return succeeded(request, "passwordUpdated");
}

/** A form's failure (its successes are the layout's flash message). */
function Message({ result, intent }: { result: Result | undefined; intent: Result["intent"] }) {
  const { t } = useTranslation();
  if (!result || result.intent !== intent || result.ok) return null;
  return (
    <p role="status" className={`text-sm ${result.ok ? "text-green-400" : "text-red-400"}`}>
      {result.key ? t(`admin.account.${result.key}`, result.values) : result.message}
    </p>
  );
}

/**
 * The failure of `fetcher`'s last submission, or undefined while one is under way and after one that redirected
 * (a success: `onSuccess` runs, and its message is the layout's flash). A fetcher keeps its earlier data across a
 * redirect, so a submission's outcome is told by whether its data changed. The outcome is derived while
 * rendering (React's "storing information from previous renders"), so the render that shows the success flash
 * never shows the failure it replaces.
 */
function useFailure(fetcher: FetcherWithComponents<Result>, onSuccess: () => void): Result | undefined {
  const [sent, setSent] = useState<{ data: Result | undefined } | null>(null);
  const [failed, setFailed] = useState(false);
  const [successes, setSuccesses] = useState(0);
  if (fetcher.state === "submitting" && !sent) setSent({ data: fetcher.data });
  if (fetcher.state === "idle" && sent) {
    const redirected = fetcher.data === sent.data;
    setSent(null);
    setFailed(!redirected);
    if (redirected) setSuccesses((count) => count + 1);
  }
  // Before the browser paints, so the flash and its side effects (emptied fields) show in one frame.
  useLayoutEffect(() => {
    if (successes > 0) onSuccess();
    // onSuccess runs once per successful submission.
  }, [successes]);
  return fetcher.state === "idle" && !sent && failed ? fetcher.data : undefined;
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const nameForm = useFetcher<Result>();
  const passwordForm = useFetcher<Result>();
  const [name, setName] = useState(loaderData.user.name);
  const [next, setNext] = useState("");
  const passwordFields = useRef<HTMLFormElement>(null);
  // A changed password is not left in the fields.
  const passwordResult = useFailure(passwordForm, () => {
    passwordFields.current?.reset();
    setNext("");
  });
  const nameResult = useFailure(nameForm, () => {});
  return (
    <div className="max-w-xl space-y-10">
      <h1 className="text-3xl font-bold">{t("admin.nav.account")}</h1>
      <section aria-labelledby="info" className="space-y-4 rounded-2xl border border-line bg-panel p-6">
        <h2 id="info" className="font-semibold">
          {t("admin.account.information")}
        </h2>
        <Field name="email" label={t("auth.email")} defaultValue={loaderData.user.email} readOnly ltr />
        <nameForm.Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="name" />
          <Field name="name" label={t("auth.fullName")} value={name} onChange={setName} required />
          {/* Without JavaScript a form posts the page itself: its failure is the page's action data. */}
          <Message result={nameResult ?? actionData} intent="name" />
          <button
            type="submit"
            disabled={nameForm.state !== "idle" || !name.trim() || name.trim() === loaderData.user.name}
            className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink disabled:opacity-50"
          >
            {nameForm.state !== "idle" ? t("admin.saving") : t("admin.account.updateName")}
          </button>
        </nameForm.Form>
      </section>
      <section aria-labelledby="password" className="rounded-2xl border border-line bg-panel p-6">
        <h2 id="password" className="font-semibold">
          {t("admin.account.changePassword")}
        </h2>
        <passwordForm.Form ref={passwordFields} method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="password" />
          <Field
            name="currentPassword"
            type="password"
            label={t("admin.account.currentPassword")}
            ltr
            autoComplete="current-password"
          />
          <Field
            name="newPassword"
            type="password"
            label={t("admin.account.newPassword")}
            ltr
            autoComplete="new-password"
            value={next}
            onChange={setNext}
          />
          <Field
            name="confirmPassword"
            type="password"
            label={t("admin.account.confirmPassword")}
            ltr
            autoComplete="new-password"
          />
          <Message result={passwordResult ?? actionData} intent="password" />
          <button
            type="submit"
            disabled={passwordForm.state !== "idle" || !next}
            className="rounded-full bg-gold px-5 py-2 text-sm font-semibold text-ink disabled:opacity-50"
          >
            {passwordForm.state !== "idle" ? t("admin.saving") : t("admin.account.updatePassword")}
          </button>
        </passwordForm.Form>
      </section>
    </div>
  );
}
