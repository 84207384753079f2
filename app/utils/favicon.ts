/**
 * An organization's icon when it has neither a favicon nor a logo of its own: a monogram, the first letter
 * of its name in white on a rounded square of its colour (server/favicon.ts serves it as /favicon.svg and,
 * drawn as a PNG inside an ICO, as /favicon.ico). Organizations have no brand colour setting, so the
 * colour comes from the name: the same name always gets the same colour, and different names mostly differ.
 */

/** The monogram's letter: the name's first letter or digit, upper-cased ("Ørsted" → "Ø"); "L" for none. */
export function monogramLetter(name: string) {
  const letter = [...name.normalize("NFC")].find((c) => /[\p{L}\p{N}]/u.test(c));
  return (letter ?? "L").toLocaleUpperCase();
}

/** FNV-1a over the name's UTF-16 units: a small, stable hash. */
function hash(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** HSL (0–360, 0–1, 0–1) as #rrggbb. */
function hslToHex(h: number, s: number, l: number) {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** WCAG's relative luminance of #rrggbb. */
export function luminance(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The organization's colour, from its name: any hue, saturated enough to tell apart, and dark enough that
 * the white letter has at least 4.5:1 contrast (yellows and greens need a darker shade than blues).
 */
export function brandColour(name: string) {
  const hue = hash(name.trim().toLowerCase()) % 360;
  let lightness = 0.42;
  let colour = hslToHex(hue, 0.62, lightness);
  while (1.05 / (luminance(colour) + 0.05) < 4.5 && lightness > 0.1) {
    lightness -= 0.01;
    colour = hslToHex(hue, 0.62, lightness);
  }
  return colour;
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

/** The monogram as an SVG document (64 × 64 user units, scales to any size). */
export function monogramSvg(name: string) {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">` +
    `<rect width="64" height="64" rx="14" fill="${brandColour(name)}"/>` +
    `<text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif" font-size="40" font-weight="700" fill="#ffffff">${escapeXml(monogramLetter(name))}</text>` +
    `</svg>`
  );
}

/**
 * An ICO file holding one PNG image (Windows Vista and every browser since read PNG inside ICO): the
 * six-byte header, one sixteen-byte directory entry, then the PNG as it is.
 */
export function icoFromPng(png: Uint8Array, size: number) {
  const header = new Uint8Array(6 + 16);
  const view = new DataView(header.buffer);
  view.setUint16(0, 0, true); // reserved
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  view.setUint8(6, size >= 256 ? 0 : size); // width (0 means 256)
  view.setUint8(7, size >= 256 ? 0 : size); // height
  view.setUint8(8, 0); // no palette
  view.setUint8(9, 0); // reserved
  view.setUint16(10, 1, true); // colour planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, png.byteLength, true); // image size
  view.setUint32(18, header.byteLength, true); // image offset
  const ico = new Uint8Array(header.byteLength + png.byteLength);
  ico.set(header, 0);
  ico.set(png, header.byteLength);
  return ico;
}
