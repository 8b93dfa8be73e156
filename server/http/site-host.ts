/**
 * The hosts the site answers for (SECURITY C56). Without `SITE_URL`, pages build their absolute links
 * (canonical, hreflang, Open Graph, sitemap, RSS) from the request's host, so a request naming another host
 * (`Host: evil.example`, or `X-Forwarded-Host` behind a trusted proxy) would get, and let a shared cache keep,
 * a page pointing at the attacker's site. Such a request is answered 421 Misdirected Request (RFC 9110
 * §15.5.20: this server does not produce responses for that authority); a `Host` that is not
 * `uri-host [":" port]` (RFC 9110 §7.2, RFC 3986 §3.2.2) is answered 400 (RFC 9112 §3.2).
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
  /** `SITE_URL` (an http(s) URL; anything else is ignored, as `web/server/origin.server.ts` does). */
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
