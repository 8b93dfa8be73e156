/**
 * The client part of a per-IP limit's key (SECURITY C64, issue #26 item 3). One IPv6 subscriber usually gets
 * a whole /64 (RFC 6177 §2, RFC 7934 §6: a host may pick any address in its prefix), so counting each IPv6
 * address apart would let one client take a fresh allowance per request. IPv6 addresses are therefore counted
 * by their /64; an IPv4 address (also written IPv4-mapped, `::ffff:192.0.2.1`, RFC 4291 §2.5.5.2) by itself.
 */
import ipaddr from "ipaddr.js";

/**
 * The key a per-IP limit counts `ip` under: an IPv4 address as it is (an IPv4-mapped IPv6 one as plain IPv4),
 * an IPv6 address as its /64 prefix (`2001:db8:1:2::/64`, whatever the zone or the spelling), anything else
 * (`"unknown"`, a proxy's odd value) as given. Addresses are parsed by `ipaddr.js` (the parser Express's
 * `proxy-addr` uses).
 */
export function ipLimitKey(ip: string): string {
  const address = ip.replace(/%.*$/, ""); // a zone (`fe80::1%eth0`) names the interface, not the client
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${v6.toString()}/64`).toString()}/64`;
}
