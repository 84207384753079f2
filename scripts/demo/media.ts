import crypto from "node:crypto";
import sharp from "sharp";

/**
 * Media made at seed time, deterministic for a given name: cover art (SVG shapes rendered to WebP by
 * sharp — no text, so no fonts are needed; pages put titles over them) and PDFs (a small writer of real
 * PDF 1.4 files with the standard Helvetica font, so any viewer opens them).
 */

/** A pseudo-random generator seeded by a string: the same name always gives the same picture. */
export function seededRandom(seed: string) {
  let state = crypto.createHash("sha256").update(seed).digest().readUInt32LE(0) || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) % 1_000_000) / 1_000_000;
  };
}

const PALETTES = [
  ["#0f172a", "#1e3a8a", "#3b82f6", "#93c5fd", "#f59e0b"],
  ["#1a1423", "#3d1e6d", "#8338ec", "#ff006e", "#ffbe0b"],
  ["#0b132b", "#1c2541", "#3a506b", "#5bc0be", "#e0fbfc"],
  ["#1b4332", "#2d6a4f", "#40916c", "#95d5b2", "#fefae0"],
  ["#3d0c02", "#9a031e", "#e36414", "#fb8b24", "#fff3b0"],
  ["#10002b", "#240046", "#5a189a", "#9d4edd", "#e0aaff"],
  ["#03045e", "#0077b6", "#00b4d8", "#90e0ef", "#ffd166"],
  ["#22223b", "#4a4e69", "#9a8c98", "#c9ada7", "#f2e9e4"],
];

/** 16:9 cover art: a gradient, soft circles and a few bold shapes, picked by the name. */
export async function coverArt(name: string, { width = 1280, height = 720 } = {}) {
  const rand = seededRandom(name);
  const palette = PALETTES[Math.floor(rand() * PALETTES.length)];
  const pick = () => palette[Math.floor(rand() * palette.length)];
  const shapes: string[] = [];
  for (let i = 0; i < 7; i++) {
    const r = 60 + rand() * 320;
    shapes.push(
      `<circle cx="${(rand() * width).toFixed(0)}" cy="${(rand() * height).toFixed(0)}" r="${r.toFixed(0)}" fill="${pick()}" opacity="${(0.18 + rand() * 0.35).toFixed(2)}"/>`,
    );
  }
  for (let i = 0; i < 3; i++) {
    const x = rand() * width;
    const y = rand() * height;
    const s = 80 + rand() * 200;
    shapes.push(
      `<rect x="${x.toFixed(0)}" y="${y.toFixed(0)}" width="${s.toFixed(0)}" height="${s.toFixed(0)}" rx="${(s / 6).toFixed(0)}" fill="${pick()}" opacity="0.55" transform="rotate(${(rand() * 90 - 45).toFixed(0)} ${x.toFixed(0)} ${y.toFixed(0)})"/>`,
    );
  }
  const lines = Array.from({ length: 6 }, (_, i) => {
    const y = (height / 7) * (i + 1) + rand() * 30;
    return `<path d="M0 ${y.toFixed(0)} C ${width / 3} ${(y - 120 + rand() * 240).toFixed(0)}, ${(2 * width) / 3} ${(y - 120 + rand() * 240).toFixed(0)}, ${width} ${y.toFixed(0)}" stroke="${palette[4]}" stroke-width="2" fill="none" opacity="0.25"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette[0]}"/><stop offset="1" stop-color="${palette[2]}"/></linearGradient>
<radialGradient id="v" cx="0.3" cy="0.3" r="0.9"><stop offset="0" stop-color="#ffffff" stop-opacity="0.12"/><stop offset="1" stop-color="#000000" stop-opacity="0.45"/></radialGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join("")}${lines.join("")}<rect width="100%" height="100%" fill="url(#v)"/></svg>`;
  // Effort 0: the same quality in a larger file, at a third of the CPU (the demo is seeded twice in every `npm test`).
  return sharp(Buffer.from(svg)).webp({ quality: 82, effort: 0 }).toBuffer();
}

/** A PDF of pages of text: a title, then paragraphs wrapped to the page. */
export function textPdf(title: string, paragraphs: string[]) {
  const wrap = (text: string, size: number, width: number) => {
    const perLine = Math.floor(width / (size * 0.5));
    const out: string[] = [];
    let line = "";
    for (const word of text.split(/\s+/)) {
      if ((line + " " + word).trim().length > perLine) {
        out.push(line.trim());
        line = word;
      } else line += ` ${word}`;
    }
    if (line.trim()) out.push(line.trim());
    return out;
  };
  // Latin-1 with PDF string escapes; Helvetica's WinAnsi covers æ, ø, å, ä, ö and ł is replaced.
  const pdfString = (s: string) =>
    `(${s
      .replace(/ł/g, "l")
      .replace(/Ł/g, "L")
      .replace(/[\\()]/g, (c) => `\\${c}`)
      .replace(/[^\x20-\xff]/g, "?")})`;
  const pages: string[][] = [[]];
  let y = 770;
  const put = (cmd: string, height: number) => {
    if (y - height < 60) {
      pages.push([]);
      y = 770;
    }
    pages[pages.length - 1].push(cmd.replace("{y}", String(y)));
    y -= height;
  };
  for (const line of wrap(title, 22, 480)) put(`BT /F2 22 Tf 60 {y} Td ${pdfString(line)} Tj ET`, 30);
  y -= 10;
  for (const paragraph of paragraphs) {
    for (const line of wrap(paragraph, 11, 480)) put(`BT /F1 11 Tf 60 {y} Td ${pdfString(line)} Tj ET`, 16);
    y -= 8;
  }
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1; // object number
  const catalog = add("<< /Type /Catalog /Pages 2 0 R >>");
  add("PAGES");
  const f1 = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const f2 = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  const kids: number[] = [];
  pages.forEach((commands, index) => {
    const footer = `BT /F1 9 Tf 60 40 Td ${pdfString(`${title} - ${index + 1}/${pages.length}`)} Tj ET`;
    const stream = [...commands, footer].join("\n");
    const content = add(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${f1} 0 R /F2 ${f2} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  });
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}
