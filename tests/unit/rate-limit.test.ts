import { describe, expect, it } from "vitest";
import { clientKey, WindowLimiter } from "../../server/rate-limit";

describe("WindowLimiter", () => {
  it("counts a client's requests in its own window and starts again when it ends", () => {
    const limiter = new WindowLimiter(3, 60_000);
    const t0 = 1_000_000;
    expect([1, 2, 3, 4].map((i) => limiter.hit("a", t0 + i).hits)).toEqual([1, 2, 3, 4]);
    // Another client has its own count.
    expect(limiter.hit("b", t0 + 10).hits).toBe(1);
    const { resetAt } = limiter.hit("a", t0 + 59_000);
    expect(resetAt).toBe(t0 + 1 + 60_000);
    expect(limiter.hit("a", resetAt).hits).toBe(1);
  });

  it("forgets clients whose window has ended", () => {
    const limiter = new WindowLimiter(3, 1_000);
    for (let i = 0; i < 100; i++) limiter.hit(`client-${i}`, 5_000);
    expect(limiter.size).toBe(100);
    limiter.hit("late", 7_000);
    expect(limiter.size).toBe(1);
  });
});

describe("clientKey", () => {
  it("keys IPv4 by address, also when written IPv4-mapped", () => {
    expect(clientKey("203.0.113.9")).toBe("203.0.113.9");
    expect(clientKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientKey("::FFFF:203.0.113.10")).toBe("203.0.113.10");
  });

  it("keys IPv6 by its /56 network, however the address is written", () => {
    const key = clientKey("2001:db8:abcd:12ff::1");
    expect(key).toBe("2001:db8:abcd:1200::/56");
    expect(clientKey("2001:0db8:abcd:1234:5678:9abc:def0:1234")).toBe(key);
    expect(clientKey("2001:db8:abcd:1300::1")).not.toBe(key);
    expect(clientKey("::1")).toBe("0:0:0:0::/56");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/56");
  });

  it("passes anything else through", () => {
    expect(clientKey(undefined)).toBe("");
    expect(clientKey("unix-socket")).toBe("unix-socket");
  });
});
