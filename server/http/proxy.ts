/**
 * What a request says about its client when the site runs behind reverse proxies (SECURITY C56), with the
 * rules of Express's `trust proxy` setting given a hop count (https://expressjs.com/en/guide/behind-proxies.html),
 * so the raw `node:http` fast path and Express (`app.set("trust proxy", hops)`, used by React Router's adapter)
 * agree: one rule for the whole server.
 *
 * - Client address: the socket's peer, then `X-Forwarded-For` read from the right; the first `hops` entries
 *   are trusted proxies, the next one is the client. Every proxy appends the address it received the request
 *   from, so the right-most entries are the ones the client cannot forge; the left-most entry is whatever the
 *   client sent (RFC 7239 §5.2 describes the same list for `Forwarded: for=`).
 * - Protocol and host: the first value of `X-Forwarded-Proto` / `X-Forwarded-Host` when the socket's peer is a
 *   trusted proxy (hops ≥ 1), else the connection's own scheme and the `Host` header (Express's
 *   `req.protocol`, `req.host`). The host is then checked against the site's own (`site-host.ts`).
 */
import type { IncomingMessage } from "node:http";

/**
 * The number of proxy hops to trust from a `TRUST_PROXY` setting: `true` means one proxy (the usual single
 * reverse proxy), `false`/undefined none, a number that many.
 * @throws {RangeError} for a negative or fractional count.
 */
export function proxyHops(trustProxy: boolean | number | undefined): number {
  if (trustProxy === undefined || trustProxy === false) return 0;
  if (trustProxy === true) return 1;
  if (!Number.isInteger(trustProxy) || trustProxy < 0) throw new RangeError("proxy hops must be a whole number ≥ 0");
  return trustProxy;
}

/** A header's value as one string (Node joins repeated `X-Forwarded-For` lines with ", "). */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The client's IP address: with `hops` trusted proxies in front, the `hops`-th `X-Forwarded-For` entry from
 * the right (the socket's peer when `hops` is 0, the left-most entry when there are fewer entries than hops).
 * Same result as Express's `req.ip` with `trust proxy` set to `hops` (proxy-addr).
 * @returns the address as written by the proxy (not validated), or `"unknown"` when the socket has closed.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const peer = req.socket.remoteAddress ?? "unknown";
  if (hops === 0) return peer;
  const forwarded = header(req, "x-forwarded-for");
  // Entries split on commas, spaces around them trimmed, empty ones skipped (as the `forwarded` package does).
  const chain = (forwarded ?? "")
    .split(",")
    .map((entry) => entry.replace(/^ +| +$/g, ""))
    .filter((entry) => entry !== "");
  // chain read from the right: index 0 is the socket's peer, 1 the right-most entry, …
  const fromRight = [peer, ...chain.reverse()];
  return fromRight[Math.min(hops, fromRight.length - 1)]!;
}

/**
 * The scheme the client used: the first `X-Forwarded-Proto` value when the peer is a trusted proxy (hops ≥ 1),
 * else `https` on a TLS socket and `http` otherwise (Express's `req.protocol`). Not validated
 * (`site-host.ts` refuses anything but http and https).
 */
export function forwardedProtocol(req: IncomingMessage, hops: number): string {
  const own = "encrypted" in req.socket && req.socket.encrypted ? "https" : "http";
  if (hops === 0) return own;
  const value = header(req, "x-forwarded-proto") || own;
  return value.split(",")[0]!.trim();
}

/**
 * The host (with its port, if any) the client asked for: the first `X-Forwarded-Host` value when the peer is
 * a trusted proxy and sent one, else the `Host` header (Express's `req.host`).
 * @returns the raw value (not validated), or undefined when there is none.
 */
export function forwardedHost(req: IncomingMessage, hops: number): string | undefined {
  const forwarded = hops > 0 ? header(req, "x-forwarded-host") : undefined;
  const value = forwarded ? forwarded.split(",")[0]!.trimEnd() : req.headers.host;
  return value || undefined;
}
