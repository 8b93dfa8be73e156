import { translatorOf } from "./t.ts";

/**
 * An admin page's `meta`: its tab title in the admin's language, "<page> | Admin" / "<page> | الإدارة" (issue
 * #17 item 1), from the messages its matched routes carry (the admin layout sends them all).
 */
export function adminTitle(matches: readonly unknown[], key: string): { title: string }[] {
  const { t } = translatorOf(matches);
  return [{ title: `${t(key)} | ${t("nav.admin")}` }];
}
