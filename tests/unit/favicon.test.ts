import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { brandColour, icoFromPng, luminance, monogramLetter, monogramSvg } from "~/utils/favicon";

describe("the monogram icon (app/utils/favicon.ts)", () => {
  it("shows the name's first letter or digit, upper-cased", () => {
    expect(monogramLetter("acme Academy")).toBe("A");
    expect(monogramLetter("  «Ørsted» & co")).toBe("Ø");
    expect(monogramLetter("3D Studio")).toBe("3");
    expect(monogramLetter("")).toBe("L");
    expect(monogramSvg('<b>"x"</b>')).toContain(">B</text>");
  });

  it("keeps a name's colour, and the white letter readable (4.5:1) on every hue", () => {
    expect(brandColour("Acme Academy")).toBe(brandColour(" acme academy "));
    expect(new Set(["Acme Academy", "Nordlys Akademi", "Lectern", "Globex", "Initech"].map(brandColour)).size).toBeGreaterThan(3);
    for (let i = 0; i < 2000; i++) {
      const colour = brandColour(`organization ${i}`);
      expect(colour).toMatch(/^#[0-9a-f]{6}$/);
      expect(1.05 / (luminance(colour) + 0.05)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("wraps a PNG in a well-formed ICO that an image library reads back", async () => {
    const png = await sharp(Buffer.from(monogramSvg("Acme")))
      .resize(48, 48)
      .png()
      .toBuffer();
    const ico = Buffer.from(icoFromPng(png, 48));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7], ico.readUInt32LE(14), ico.readUInt32LE(18)]).toEqual([48, 48, png.length, 22]);
    expect(ico.subarray(22).equals(png)).toBe(true);
    const meta = await sharp(ico.subarray(ico.readUInt32LE(18))).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 48, 48]);
  });
});
