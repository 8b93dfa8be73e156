/**
 * The client part of a per-IP limit's key (SECURITY C64, issue #26 item 3). One IPv6 subscriber usually gets
 * a whole /64 (RFC 6177 §2, RFC 7934 §6: a host may pick any address in its prefix), so counting each IPv6
 * address apart would let one client take a fresh allowance per request. IPv6 addresses are therefore counted
 * by their /64; an IPv4 address (also written IPv4-mapped, `::ffff:192.0.2.1`, RFC 4291 §2.5.5.2) by itself.
 */
import { isIPv4, isIPv6 } from "node:net";

/** The eight 16-bit groups of a valid IPv6 address (an IPv4 tail becomes the last two), as numbers. */
function groupsOf(address: string): number[] {
  let text = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a, b, c, d] = tail.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const left = parse(head);
  if (rest === undefined) return left;
  const right = parse(rest);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key a per-IP limit counts `ip` under: an IPv4 address as it is (an IPv4-mapped IPv6 one as plain IPv4),
 * an IPv6 address as its /64 prefix (`2001:db8:1:2::/64`, whatever the zone or the spelling), anything else
 * (`"unknown"`, a proxy's odd value) as given.
 */
export function ipLimitKey(ip: string): string {
  const address = ip.replace(/%.*$/, ""); // a zone (`fe80::1%eth0`) names the interface, not the client
  if (isIPv4(address) || !isIPv6(address)) return address;
  const groups = groupsOf(address.toLowerCase());
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
