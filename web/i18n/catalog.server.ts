/**
 * All UI texts, on the server only (issue 18: the browser gets its page's messages as loader data, in its
 * language). `locales/en.json` and `locales/ar.json` keep one object per namespace (`nav`, `home`, `admin`…);
 * Arabic is completed with English here, once, so a key missing in Arabic shows in English (spec §1).
 */
import { CONTENT_KIND_NAMES, CONTENT_MODEL } from "../../model/model.ts";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "./i18n.ts";
import { createTranslator, lookup, type Messages, type Translator } from "./t.ts";

/**
 * `primary` with `fallback`'s texts wherever `primary` has none (nested objects merged key by key; a string
 * or a list is taken whole from `primary` when it has one).
 */
export function withFallback(primary: Messages, fallback: Messages): Messages {
  const merged: Record<string, unknown> = { ...fallback };
  for (const [key, value] of Object.entries(primary)) {
    const base = fallback[key];
    merged[key] =
      isObject(value) && isObject(base) ? withFallback(value as Messages, base as Messages) : (value ?? base);
  }
  return merged;
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Each locale's message file, `locales/<code>.json`, bundled by Vite. */
const FILES = import.meta.glob<Messages>("./locales/*.json", { eager: true, import: "default" });

/**
 * The messages of each locale of the table (`LOCALES`), completed with the default locale's.
 * @throws Error at load when a locale of the table has no `locales/<code>.json`.
 */
function catalogs(): Record<Locale, Messages> {
  const fileOf = (locale: Locale): Messages => {
    const messages = FILES[`./locales/${locale}.json`];
    if (!messages) throw new Error(`web/i18n/locales/${locale}.json is missing: each locale needs its messages.`);
    return messages;
  };
  const base = fileOf(DEFAULT_LOCALE);
  return Object.fromEntries(
    LOCALES.map((locale) => [locale, locale === DEFAULT_LOCALE ? base : withFallback(fileOf(locale), base)]),
  ) as Record<Locale, Messages>;
}

const CATALOGS = catalogs();

/**
 * Namespaces every public page gets from the root loader: the shell (header, footer, SEO), the error screens
 * (`notFound`, `general`) and what they name when a page's own loader failed: each kind's public path
 * (`ventures`, `blog`).
 */
export const SHELL_NAMESPACES: readonly string[] = [
  ...["site", "nav", "footer", "general", "notFound", "seo"],
  ...CONTENT_KIND_NAMES.map((kind) => CONTENT_MODEL[kind].publicPath),
];

/**
 * The messages of `locale` at `keys`, for a loader to return: namespaces (top-level keys of the JSON files,
 * `"home"`) or parts of one (`"legal.privacy"`), each with its nesting kept so `t("legal.privacy.title")` finds it.
 */
export function messagesFor(locale: Locale, keys: readonly string[]): Messages {
  // The same keys give the same messages: picked once per process, so translators' lookups are cached too.
  const id = `${locale}:${keys.join(",")}`;
  let picked = picks.get(id);
  if (!picked) {
    picked = pick(locale, keys);
    picks.set(id, picked);
  }
  return picked;
}

/** Messages picked by `messagesFor`, by locale and keys (a few dozen: one per loader's set of namespaces). */
const picks = new Map<string, Messages>();

function pick(locale: Locale, keys: readonly string[]): Messages {
  const picked: Record<string, unknown> = {};
  for (const key of keys) {
    const value = lookup(CATALOGS[locale], key);
    if (value === undefined) continue;
    const parts = key.split(".");
    let node = picked;
    // Copies on the way down, so picking "legal" and then "legal.x" never writes into the catalog.
    for (const part of parts.slice(0, -1)) node = node[part] = { ...(node[part] as object | undefined) };
    node[parts.at(-1)!] = value;
  }
  return picked;
}

/** Every message of `locale` (the admin's loader sends them all: it is one application). */
export function allMessages(locale: Locale): Messages {
  return CATALOGS[locale];
}

/** The server's translator for `locale` (actions, feeds, API errors): every message of that language. */
export function getI18n(locale: Locale): Translator {
  return createTranslator([CATALOGS[locale]], locale);
}
