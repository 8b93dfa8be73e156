/**
 * The UI's `t()` (spec §1 "Language"), small enough for every page: texts are looked up by dotted key
 * (`"nav.home"`) in message objects shaped like `locales/en.json`, `{{name}}` placeholders are filled in, and
 * a key found nowhere is shown as itself with one warning. No i18next in the browser (issue 18).
 *
 * Messages reach the browser as loader data, never as JavaScript: the root loader sends the shell's texts,
 * each page's loader its own namespaces (`messagesFor` in `catalog.server.ts`), and the Arabic ones already
 * hold the English text of any key Arabic lacks. `useTranslation()` (web/hooks.ts) and a route's `meta`
 * (`translatorOf(args.matches)`) read them from the matched routes, the page's first.
 */

/** Texts by key: strings, nested objects and lists of strings or objects (the JSON files' shape). */
export interface Messages {
  readonly [key: string]: unknown;
}

/** Values for `{{placeholders}}`. */
export type Values = Readonly<Record<string, string | number | undefined>>;

export interface Translator {
  /** The text at `key` with `values` filled in; the key itself (and a warning) when no message has it. */
  t: (key: string, values?: Values) => string;
  /** The list at `key` (arrays of strings or objects); empty, with a warning, when there is none. */
  list: <T>(key: string) => T[];
}

/**
 * Values found by `lookup`, by messages object and key: a page asks for the same shell keys in every render,
 * and loaders send the same messages objects each time (`messagesFor` keeps them), so most lookups are one
 * `Map.get`. Messages are never changed once made.
 */
const lookups = new WeakMap<object, Map<string, unknown>>();

/** The value at a dotted `key` in `messages`, or undefined. */
export function lookup(messages: unknown, key: string): unknown {
  if (typeof messages !== "object" || messages === null) return undefined;
  let found = lookups.get(messages);
  if (!found) lookups.set(messages, (found = new Map()));
  if (found.has(key)) return found.get(key);
  let node: unknown = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) {
      node = undefined;
      break;
    }
    node = (node as Record<string, unknown>)[part];
  }
  found.set(key, node);
  return node;
}

/** Logs one warning per missing key, so a page rendered often does not flood the log. */
const warned = new Set<string>();
function missing(key: string, locale: string): string {
  const id = `${locale}:${key}`;
  if (!warned.has(id)) {
    warned.add(id);
    console.warn(`[i18n] missing translation "${key}" (${locale}); showing the key`);
  }
  return key;
}

/**
 * A translator over `sources` (searched in order, first hit wins) in `locale` (named in warnings only).
 * Arabic sources already carry English for the keys Arabic lacks, so a key missing here is missing in both.
 */
export function createTranslator(sources: readonly unknown[], locale = ""): Translator {
  const find = (key: string, wanted: (value: unknown) => boolean): unknown => {
    for (const source of sources) {
      const value = lookup(source, key);
      if (wanted(value)) return value;
    }
    return undefined;
  };
  return {
    t(key, values) {
      const text = find(key, (value) => typeof value === "string") as string | undefined;
      if (text === undefined) return missing(key, locale);
      return values ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, name: string) => String(values[name] ?? all)) : text;
    },
    list<T>(key: string): T[] {
      const value = find(key, Array.isArray) as T[] | undefined;
      if (value === undefined) missing(key, locale);
      return value ?? [];
    },
  };
}

/** What the root and page loaders return for `t()`: `{ messages, locale }` among their data. */
export interface MessagesData {
  messages?: Messages;
  locale?: string;
}

/**
 * The translator of a page from its route matches (`useMatches()`, or a `meta` function's `matches`):
 * the messages of the innermost route first, the root's last.
 */
export function translatorOf(matches: readonly unknown[]): Translator {
  const sources: Messages[] = [];
  let locale = "";
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i] as { loaderData?: unknown; data?: unknown } | undefined;
    const data = (match?.loaderData ?? match?.data) as MessagesData | null | undefined;
    if (data && typeof data === "object" && data.messages) sources.push(data.messages);
    if (data && typeof data === "object" && typeof data.locale === "string" && !locale) locale = data.locale;
  }
  return createTranslator(sources, locale);
}

/**
 * The `shouldRevalidate` of a route whose loader returns only texts: they change with the language alone, so a
 * tab's `?query`, a form post or a link to the same page fetches nothing.
 */
export function whenLocaleChanges(args: {
  currentParams: { locale?: string };
  nextParams: { locale?: string };
}): boolean {
  return args.currentParams.locale !== args.nextParams.locale;
}
