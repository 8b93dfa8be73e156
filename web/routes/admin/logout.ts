import { redirect } from "react-router";
import { signOut } from "../../../server/auth/account.ts";
import { appwriteLocation } from "../../data/appwrite.server.ts";
import { endSession, preferredLocale, sessionSecret } from "../../data/session.server.ts";
import type { Route } from "./+types/logout";

/**
 * Logout (spec §4, §7): deletes the Appwrite session, clears the cookie and goes to `/{locale}/login`.
 * POST only (SECURITY C7); a GET just goes to the login page.
 */
export async function action({ request }: Route.ActionArgs) {
  const secret = await sessionSecret(request);
  if (secret) await signOut(appwriteLocation(), secret);
  return redirect(`/${preferredLocale(request)}/login`, { headers: { "Set-Cookie": await endSession(request) } });
}

export function loader({ request }: Route.LoaderArgs) {
  return redirect(`/${preferredLocale(request)}/login`);
}
