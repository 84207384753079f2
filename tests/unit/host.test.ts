import { describe, expect, it } from "vitest";
import { normalizeHost } from "~/models/organization.server";

describe("normalizeHost", () => {
  it.each([
    ["acme.localhost", "acme.localhost"],
    ["ACME.LocalHost:3000", "acme.localhost"],
    ["learn.acme.com", "learn.acme.com"],
    ["localhost", "localhost"],
  ])("accepts %s as %s", (raw, expected) => {
    expect(normalizeHost(raw)).toBe(expected);
  });

  it.each([
    ["nothing", undefined],
    ["an empty value", ""],
    ["a trailing dot", "acme.localhost."],
    ["an IPv6 literal", "[::1]:3000"],
    ["a path", "acme.localhost/../x"],
    ["an encoded path", "acme.localhost%2f"],
    ["spaces", "acme localhost"],
    ["an oversized host", `${"a".repeat(250)}.com`],
    ["a label starting with a dash", "-acme.localhost"],
    ["an empty label", "acme..localhost"],
  ])("refuses %s", (_label, raw) => {
    expect(normalizeHost(raw)).toBeNull();
  });
});
