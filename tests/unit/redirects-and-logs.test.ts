import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/redirect";
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
    // Values that pass a look at the raw text but resolve off the site (issue 30, row 3).
    ["a dot segment before //", "/.//evil.example"],
    ["an encoded dot segment", "/%2e//evil.example"],
    ["an encoded upper-case dot segment", "/%2E//evil.example/x?y#z"],
    ["a parent segment", "/a/..//evil.example"],
    ["two parent segments", "/a/b/../..//evil.example"],
    ["a dot segment before a backslash", "/./\\evil.example"],
    ["an encoded slash after resolution", "/./%2fevil.example"],
    ["an encoded backslash after resolution", "/a/../%5cevil.example"],
    ["a protocol", "http://evil.example"],
    ["a protocol-relative URL with a tab inside", "/\t/evil.example"],
  ])("refuses %s", (_label, value) => {
    expect(safeRedirectPath(value, "/home")).toBe("/home");
  });

  it("hands on the resolved path, never one that starts with //", () => {
    expect(safeRedirectPath("/courses/./1/../2?x=1")).toBe("/courses/2?x=1");
    for (const value of ["/.//a", "/%2e//a", "/a/..//a", "/./%2F%2Fa"]) expect(safeRedirectPath(value).startsWith("//")).toBe(false);
  });
});

describe("request logs", () => {
  it("never hold a reset link's token", () => {
    expect(redactPath("/auth/reset/a%40b.c/SECRETTOKEN")).toBe("/auth/reset/a%40b.c/[redacted]");
    expect(redactPath("/auth/reset")).toBe("/auth/reset");
    expect(redactPath("/courses/1")).toBe("/courses/1");
  });
});
