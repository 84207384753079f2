import { describe, expect, it } from "vitest";
import { formatDate } from "~/utils/dates";
import { defaultThemeFor, isTheme } from "~/utils/theme";

describe("defaultThemeFor (docs/product.md §1, §9)", () => {
  it("is light for organizations 1 and 39", () => {
    expect(defaultThemeFor(1)).toBe("light");
    expect(defaultThemeFor(39)).toBe("light");
  });
  it("is dark for every other organization and for the platform host", () => {
    expect(defaultThemeFor(2)).toBe("dark");
    expect(defaultThemeFor(40)).toBe("dark");
    expect(defaultThemeFor(null)).toBe("dark");
  });
  it("knows only the two themes", () => {
    expect(isTheme("dark")).toBe(true);
    expect(isTheme("light")).toBe(true);
    expect(isTheme("purple")).toBe(false);
  });
});

describe("formatDate", () => {
  it("uses the Danish locale by default", () => {
    expect(formatDate(new Date(Date.UTC(2026, 10, 21, 12)))).toBe("21. nov. 2026");
  });
  it("can use another locale when asked", () => {
    expect(formatDate(new Date(Date.UTC(2026, 10, 21, 12)), { locale: "en-GB" })).toBe("21 Nov 2026");
  });
});
