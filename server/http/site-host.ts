/**
 * The hosts the site answers for (SECURITY C56). Without `SITE_URL`, pages build their absolute links
 * (canonical, hreflang, Open Graph, sitemap, RSS) from the request's host, so a request naming another host
 * (`Host: evil.example`, or `X-Forwarded-Host` behind a trusted proxy) would get, and let a shared cache keep,
 * a page pointing at the attacker's site. Such a request is answered 421 Misdirected Request (RFC 9110
 * §15.5.20: this server does not produce responses for that authority); a `Host` that is not
 * `uri-host [":" port]` (RFC 9110 §7.2, RFC 3986 §3.2.2) is answered 400 (RFC 9112 §3.2).
 *
 * The request target is checked first (`checkTarget`): an absolute-form target (`GET http://evil.example/en
 * HTTP/1.1`, RFC 9112 §3.2.2) names its own authority, which replaces `Host`; it is held to the same rule (421
 * for another host, 400 when malformed), so a page never renders with a host the request line chose
 * (SECURITY C72). A path starting with `//` is answered before routing: no route matches it, and its URL
 * would read as protocol-relative.
 *
 * The site's hosts: the host of `SITE_URL` (with and without its scheme's default port), and the address
 * the server listens on with its port: `localhost`, `127.0.0.1` and `[::1]` for a loopback or wildcard
 * bind, plus, for a wildcard bind (`0.0.0.0`, `::`), this machine's interface addresses and host name.
 */
import type { IncomingMessage } from "node:http";
import { hostname as machineName, networkInterfaces } from "node:os";
import { forwardedHost, forwardedProtocol } from "./proxy.ts";

/** `reg-name` limited to letters, digits and `-._~` (no percent-encoding, no sub-delims), or an IPv6 literal. */
const HOST = /^(?:([A-Za-z0-9._~-]{1,253})|(\[[0-9A-Fa-f:.]{2,45}\]))(?::(\d{1,5}))?$/;

/**
 * Parses a `Host` value (RFC 9110 §7.2: `uri-host [":" port]`).
 * @returns the host lower-cased, with its port as a decimal number without leading zeros when one was
 *   given (`Example.COM:080` → `example.com:80`), or null when the value is malformed (spaces, an empty or
 *   out-of-range port, an unclosed `[`, percent-encoding, user info, …).
 */
export function normalizeHost(value: string): string | null {
  const match = HOST.exec(value);
  if (!match) return null;
  const name = (match[1] ?? match[2]!).toLowerCase();
  if (match[3] === undefined) return name;
  const port = Number(match[3]);
  return port <= 65535 ? `${name}:${port}` : null;
}

const DEFAULT_PORT: Record<string, number> = { "http:": 80, "https:": 443 };

export interface SiteHostsOptions {
  /** `SITE_URL` (an http(s) URL; anything else is ignored, as `web/data/origin.server.ts` does). */
  siteUrl?: string | undefined;
  /** The address the server listens on (`127.0.0.1`, `::1`, `0.0.0.0`, a name). */
  listenHost: string;
  /** The port it listens on (after binding: never 0). */
  port: number;
}

/**
 * The `host[:port]` values the site answers for, as `normalizeHost` writes them (see the module comment).
 */
export function siteHosts(options: SiteHostsOptions): Set<string> {
  const hosts = new Set<string>();
  const addWithPort = (name: string, port: number, defaultPort: number) => {
    const bare = normalizeHost(name.includes(":") && !name.startsWith("[") ? `[${name}]` : name);
    if (!bare) return;
    hosts.add(`${bare}:${port}`);
    if (port === defaultPort) hosts.add(bare);
  };
  const siteUrl = options.siteUrl?.trim();
  if (siteUrl) {
    try {
      const url = new URL(siteUrl);
      const defaultPort = DEFAULT_PORT[url.protocol];
      if (defaultPort !== undefined) addWithPort(url.hostname, url.port ? Number(url.port) : defaultPort, defaultPort);
    } catch {
      // not a URL: the site ignores it for links too
    }
  }
  const listen = options.listenHost.replace(/^\[|\]$/g, "");
  const wildcard = listen === "0.0.0.0" || listen === "::" || listen === "";
  const loopback = wildcard || listen === "localhost" || listen === "::1" || listen.startsWith("127.");
  const names = new Set(["localhost", listen]);
  if (loopback) for (const name of ["127.0.0.1", "::1"]) names.add(name);
  if (wildcard) {
    names.delete(listen);
    names.add(machineName());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.address.replace(/%.*$/, ""));
    }
  }
  for (const name of names) addWithPort(name, options.port, 80);
  return hosts;
}

/** The outcome of `checkHost`: the request's origin, or the answer to give instead. */
export type HostCheck =
  | { ok: true; /** `scheme://host[:port]`, default port left out, as browsers write `Origin`. */ origin: string }
  | { ok: false; status: 400 | 421; message: string };

/**
 * Checks the scheme and host a request names (through `hops` trusted proxies: `X-Forwarded-Proto` and
 * `X-Forwarded-Host`, see `proxy.ts`) against the site's `hosts`.
 * @returns the request's origin, or 400 for a missing or malformed host or a scheme other than http(s),
 *   421 for a well-formed host that is not the site's. Never throws.
 */
export function checkHost(req: IncomingMessage, hops: number, hosts: ReadonlySet<string>): HostCheck {
  const protocol = forwardedProtocol(req, hops);
  if (protocol !== "http" && protocol !== "https") {
    return { ok: false, status: 400, message: "Bad request: unknown protocol." };
  }
  const raw = forwardedHost(req, hops);
  const host = raw === undefined ? null : normalizeHost(raw);
  if (!host) return { ok: false, status: 400, message: "Bad request: missing or malformed Host header." };
  if (!hosts.has(host)) {
    return { ok: false, status: 421, message: "Misdirected request: this server does not answer for that host." };
  }
  const defaultPort = protocol === "https" ? ":443" : ":80";
  return {
    ok: true,
    origin: `${protocol}://${host.endsWith(defaultPort) ? host.slice(0, -defaultPort.length) : host}`,
  };
}

/** The outcome of `checkTarget`: the origin-form target to serve, or the answer to give instead. */
export type TargetCheck =
  | {
      ok: true;
      /** `absolute-path [ "?" query ]` (RFC 9112 §3.2.1): what `req.url` must be from here on. */
      path: string;
      /** For an absolute-form target: its authority (`host[:port]`, normalized), which replaces `Host`. */
      authority?: string;
    }
  | { ok: false; status: 400 | 421; message: string }
  | { ok: "redirect"; location: string };

/** `http://…` or `https://…` (any case); other schemes are refused. */
const ABSOLUTE_FORM = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/**
 * Checks the request target of the request line (RFC 9112 §3.2) against the site's `hosts`:
 * - origin-form (`/en/blog?page=2`): served as is;
 * - absolute-form (`http://host[:port]/path`, §3.2.2): its authority replaces `Host` and must be one of
 *   `hosts` (421 otherwise, like a foreign `Host`); an http(s) scheme only (400 otherwise); served as the
 *   origin-form path and query. `hosts` is the set `siteHosts` returns;
 * - a path starting with `//` (or `/\`): a GET or HEAD is redirected (301) to the same path with one leading
 *   slash, anything else refused (400);
 * - a path whose percent-encoding does not decode (`/en/%`, `/%E0%A4`), which the router would log about: 400;
 * - anything else (asterisk-form `*`, authority-form, garbage): 400.
 * @returns the path to serve (and the authority, for an absolute-form target), a redirect, or the refusal.
 *   Never throws. Source: SECURITY C72; RFC 9112 §3.2.
 */
export function checkTarget(method: string | undefined, url: string, hosts: ReadonlySet<string>): TargetCheck {
  // The usual case, answered without a regular expression: origin-form, not `//` or `/\`, nothing to decode.
  const second = url.charCodeAt(1);
  if (url.charCodeAt(0) === 0x2f && second !== 0x2f && second !== 0x5c && !url.includes("%")) {
    return { ok: true, path: url };
  }
  const malformed = { ok: false, status: 400, message: "Bad request: malformed request target." } as const;
  let path = url;
  let authority: string | undefined;
  const scheme = ABSOLUTE_FORM.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme !== "http" && scheme !== "https") return malformed;
    const afterScheme = url.slice(scheme.length + 3);
    const end = afterScheme.search(/[/?#]/);
    const host = normalizeHost(end === -1 ? afterScheme : afterScheme.slice(0, end));
    const rest = end === -1 ? "" : afterScheme.slice(end);
    if (!host || rest.startsWith("#")) return malformed;
    if (!hosts.has(host)) {
      return { ok: false, status: 421, message: "Misdirected request: this server does not answer for that host." };
    }
    path = rest === "" || rest.startsWith("?") ? `/${rest}` : rest;
    authority = host;
  }
  if (!path.startsWith("/")) return malformed;
  // `//x` and `/\x` read as another host to a URL parser and to browsers: never served, never echoed.
  if (/^\/[/\\]/.test(path)) {
    if (method !== "GET" && method !== "HEAD")
      return { ok: false, status: 400, message: "Bad request: the path starts with //." };
    return { ok: "redirect", location: path.replace(/^[/\\]+/, "/") };
  }
  if (!decodable(path))
    return { ok: false, status: 400, message: "Bad request: malformed percent-encoding in the path." };
  return authority === undefined ? { ok: true, path } : { ok: true, path, authority };
}

/** Whether the path part of `path` (before `?`) decodes as UTF-8 percent-encoding, as the router decodes it. */
function decodable(path: string): boolean {
  const mark = path.indexOf("?");
  try {
    decodeURIComponent(mark === -1 ? path : path.slice(0, mark));
    return true;
  } catch {
    return false;
  }
}
