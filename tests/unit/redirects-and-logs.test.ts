import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/preferences.server";
import { redactPath } from "../../server/app";

describe("safeRedirectPath", () => {
  it.each(["/", "/auth/password", "/courses/1?tab=info", "/a#b", "/%09/x"])("keeps %s on this host", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    ["another host", "https://evil.example/"],
    ["a protocol-relative URL", "//evil.example/"],
    ["a backslash", "/\\evil.example"],
    ["a tab browsers strip", "/\t/evil.example"],
    ["a newline", "/\n/evil.example"],
    ["not a path", "javascript:alert(1)"],
    ["nothing", undefined],
  ])("refuses %s", (_label, value) => {
    expect(safeRedirectPath(value, "/home")).toBe("/home");
  });
});

describe("request logs", () => {
  it("never hold a reset link's token", () => {
    expect(redactPath("/auth/reset/a%40b.c/SECRETTOKEN")).toBe("/auth/reset/a%40b.c/[redacted]");
    expect(redactPath("/auth/reset")).toBe("/auth/reset");
    expect(redactPath("/courses/1")).toBe("/courses/1");
  });
});
