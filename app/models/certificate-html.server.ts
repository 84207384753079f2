import fs from "node:fs";
import QRCode from "qrcode";
import type { CertificateLayout } from "../../db/tenant";
import { formatDate } from "../utils/dates";
import type { Placeholder } from "./certificate-templates.server";

/**
 * A certificate as one self-contained HTML page for the renderer: every text is escaped, placeholders are
 * filled after escaping, images are embedded as data: URIs, the QR code is an inline SVG, and a CSP
 * refuses anything else. Nothing in it runs or loads: the renderer also has JavaScript off and blocks
 * every request that is not a data: URI.
 */

export const PAGE_MM: Record<CertificateLayout["pageSize"], { w: number; h: number }> = {
  a4: { w: 210, h: 297 },
  letter: { w: 215.9, h: 279.4 },
};

export function pageBox(layout: Pick<CertificateLayout, "pageSize" | "orientation">) {
  const { w, h } = PAGE_MM[layout.pageSize];
  return layout.orientation === "landscape" ? { widthMm: h, heightMm: w } : { widthMm: w, heightMm: h };
}

export function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Fills `{placeholder}` tokens; unknown tokens stay as they are. Values are plain text. */
export function fillPlaceholders(text: string, values: Record<Placeholder, string>) {
  return text.replace(/\{([a-z_]+)\}/g, (token, name: string) => (name in values ? values[name as Placeholder] : token));
}

const LOCALES: Record<string, string> = { en: "en-GB", pl: "pl-PL", da: "da-DK", no: "nb-NO", sv: "sv-SE" };

/** {completion_date} in the learner's language (spec: formatted in the learner's locale). */
export function certificateDate(date: Date, language: string) {
  return formatDate(date, { locale: LOCALES[language] ?? "da-DK", dateStyle: "long" });
}

/** {expiry_date}: a local day (YYYY-MM-DD) written out in the learner's language, as the day it is. */
export function certificateDay(day: string, language: string) {
  return formatDate(`${day}T00:00:00Z`, { locale: LOCALES[language] ?? "da-DK", dateStyle: "long", timeZone: "UTC" });
}

/**
 * Where a certificate that expires says so when its template has no block with {expiry_date}: under the
 * starter layout's date line, centred (app/models/certificate-templates.server.ts `starterBlocks`). An admin who wants
 * it elsewhere adds a block with the placeholder.
 */
const EXPIRY_BLOCK = { x: 10, y: 78, width: 80, size: 12, align: "center", bold: false, color: "#1f2937" } as const;

/** An image file as a data: URI, when it is a stored raster image (re-encoded at upload). */
export function imageDataUri(file: { mime: string; kind: string } | undefined, fullPath: string | null) {
  if (!file || file.kind !== "image" || !fullPath || !/^image\/(png|jpeg|gif|webp)$/.test(file.mime)) return null;
  try {
    return `data:${file.mime};base64,${fs.readFileSync(fullPath).toString("base64")}`;
  } catch {
    return null;
  }
}

export async function qrSvg(text: string) {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 0, color: { dark: "#111111", light: "#ffffff" } });
}

export interface CertificatePage {
  layout: CertificateLayout;
  values: Record<Placeholder, string>;
  backgroundUri: string | null;
  logoUri: string | null;
  /** The QR code's SVG (from qrSvg), when the layout shows one. */
  qr: string | null;
  language: string;
  /**
   * Recertification (issue 34): the line a certificate that expires shows when no block of its layout uses
   * {expiry_date} ("Valid until {expiry_date}" in its language). Blocks that use it are left out when
   * `values.expiry_date` is empty (a certificate that never expires).
   */
  expiryLine?: string | null;
}

const FONTS = `"DejaVu Sans", "Liberation Sans", "WenQuanYi Zen Hei", "Noto Sans CJK SC", sans-serif`;

/** Only the characters a data: URI of ours can hold, so it cannot end the CSS string. */
function safeUri(uri: string | null) {
  return uri && /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(uri) ? uri : null;
}

export function certificateHtml(page: CertificatePage) {
  const { widthMm, heightMm } = pageBox(page.layout);
  const background = safeUri(page.backgroundUri);
  const logo = safeUri(page.logoUri);
  const expires = page.values.expiry_date !== "";
  const usesExpiry = (b: { text: string }) => b.text.includes("{expiry_date}");
  const shown = page.layout.blocks.filter((b) => expires || !usesExpiry(b));
  if (expires && page.expiryLine && !shown.some(usesExpiry)) shown.push({ ...EXPIRY_BLOCK, text: page.expiryLine });
  const blocks = shown
    .map((b) => {
      const text = escapeHtml(fillPlaceholders(b.text, page.values)).replace(/\n/g, "<br>");
      const colour = /^#[0-9a-fA-F]{6}$/.test(b.color) ? b.color : "#1f2937";
      const align = ["left", "center", "right"].includes(b.align) ? b.align : "center";
      const num = (v: number, min: number, max: number) => Math.min(max, Math.max(min, Number(v) || 0));
      return `<div class="block" style="left:${num(b.x, 0, 100)}%;top:${num(b.y, 0, 100)}%;width:${num(b.width, 5, 100)}%;font-size:${num(b.size, 6, 96)}pt;text-align:${align};color:${colour};font-weight:${b.bold ? 700 : 400}">${text}</div>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="${escapeHtml(page.language || "en")}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:">
<title>${escapeHtml(page.values.course_title)}</title>
<style>
@page { size: ${widthMm}mm ${heightMm}mm; margin: 0; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { width: ${widthMm}mm; height: ${heightMm}mm; position: relative; overflow: hidden; font-family: ${FONTS}; background: #ffffff; }
.bg { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
.frame { position: absolute; inset: 8mm; border: 1.2mm solid #1f2937; border-radius: 2mm; ${background ? "display:none;" : ""} }
.block { position: absolute; line-height: 1.25; overflow-wrap: anywhere; white-space: normal; }
.logo { position: absolute; top: 12mm; left: 14mm; max-height: 22mm; max-width: 50mm; object-fit: contain; }
.qr { position: absolute; right: 14mm; bottom: 14mm; width: 26mm; height: 26mm; background: #fff; padding: 1.5mm; }
.qr svg { width: 100%; height: 100%; display: block; }
</style>
</head>
<body>
${background ? `<img class="bg" src="${background}" alt="">` : ""}
<div class="frame"></div>
${page.layout.showLogo && logo ? `<img class="logo" src="${logo}" alt="">` : ""}
${blocks}
${page.layout.showQr && page.qr ? `<div class="qr">${sanitizeQr(page.qr)}</div>` : ""}
</body>
</html>`;
}

/** The QR SVG comes from the qrcode library; still, keep only its <svg> with paths, nothing active. */
function sanitizeQr(svg: string) {
  return /^<svg[^>]*>(<path [^>]*\/?>(<\/path>)?)+<\/svg>\s*$/.test(svg.trim()) && !/script|href|on[a-z]+=/i.test(svg) ? svg : "";
}
