/** SECURITY C64: per-IP limits count an IPv6 client by its /64 (`server/limits/ip-key.ts`). */
import { describe, expect, it } from "vitest";
import { ipLimitKey } from "../../server/limits/ip-key.ts";

describe("ipLimitKey", () => {
  it("groups IPv6 addresses by their /64, whatever the spelling", () => {
    const key = ipLimitKey("2001:db8:1:2::1");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(ipLimitKey("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe(key);
    expect(ipLimitKey("2001:db8:1:2:a:b:c:d%eth0")).toBe(key);
    expect(ipLimitKey("2001:db8:1:3::1")).not.toBe(key);
    expect(ipLimitKey("::1")).toBe("::/64");
    expect(ipLimitKey("fe80::1:2:3:4")).toBe("fe80::/64");
  });

  it("keeps IPv4 addresses apart, IPv4-mapped ones included", () => {
    expect(ipLimitKey("192.0.2.1")).toBe("192.0.2.1");
    expect(ipLimitKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(ipLimitKey("::ffff:c000:201")).toBe("192.0.2.1");
    expect(ipLimitKey("192.0.2.2")).not.toBe(ipLimitKey("192.0.2.1"));
  });

  it("leaves what is not an address as it is", () => {
    expect(ipLimitKey("unknown")).toBe("unknown");
  });
});
