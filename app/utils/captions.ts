/**
 * Caption files (docs/decisions/036-captions.md): a small, strict reader of WebVTT and SRT, and the writer of
 * the WebVTT that is stored. What is kept is made here from the parsed cues (as an uploaded image is
 * re-encoded): only known cue settings and markup tags survive, so the file the browser loads is one we
 * wrote. A file that cannot be read throws a `CaptionError` naming the problem and the line (1-based).
 */

export type CaptionProblem =
  /** Not UTF-8 text (or binary). */
  | "encoding"
  /** Nothing but blank lines. */
  | "empty"
  /** A WebVTT file whose first line is not `WEBVTT`. */
  | "header"
  /** A block without a `start --> end` line where one belongs. */
  | "timing"
  /** A time that is not `hh:mm:ss.ttt` (or `mm:ss.ttt`; SRT: `hh:mm:ss,ttt`). */
  | "timestamp"
  /** A cue that ends before it starts. */
  | "order"
  /** Too many cues, or a cue far too long. */
  | "too_long"
  /** A file with no cue at all. */
  | "no_cues";

export class CaptionError extends Error {
  constructor(
    readonly problem: CaptionProblem,
    /** The line of the file that is wrong (1-based); 0 for the whole file. */
    readonly line: number,
    /** That line as it was (cut to 60 characters), to quote in the message. */
    readonly text = "",
  ) {
    super(`${problem} at line ${line}`);
    this.name = "CaptionError";
  }
}

export interface Cue {
  /** Milliseconds. */
  start: number;
  end: number;
  /** The cue's text with its markup (WebVTT's tags), lines joined by "\n". */
  payload: string;
  /** Cue settings (`align:start line:0`), only the known ones. */
  settings: string;
}

export type CaptionFormat = "vtt" | "srt";

/** The most cues one file may hold (a two-hour film has about 2,000). */
export const MAX_CUES = 20_000;
/** The longest text one cue may have, in characters. */
const MAX_PAYLOAD = 2_000;

/** Bytes to text: UTF-8 only (with or without a BOM), never binary; a wrong byte names its line. */
export function decodeCaptionBytes(bytes: Uint8Array): string {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  try {
    const text = decoder.decode(bytes);
    const nul = text.indexOf("\u0000");
    if (nul >= 0) throw new CaptionError("encoding", lineAt(text, nul));
    return text;
  } catch (error) {
    if (error instanceof CaptionError) throw error;
    // The first line that is not UTF-8.
    let line = 1;
    let from = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(from, i));
        } catch {
          throw new CaptionError("encoding", line);
        }
        line++;
        from = i + 1;
      }
    }
    throw new CaptionError("encoding", 0);
  }
}

function lineAt(text: string, index: number) {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The file's lines, without a BOM, CRLF and CR taken as line ends. */
function linesOf(text: string) {
  return text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
}

const quote = (line: string) => line.trim().slice(0, 60);

/** WebVTT's format, or SRT's: decided by the first line (`WEBVTT`), else by the file's name. */
export function captionFormat(text: string, name = ""): CaptionFormat {
  const first = linesOf(text.slice(0, 200))[0] ?? "";
  if (/^WEBVTT(?:[ \t]|$)/.test(first)) return "vtt";
  if (/\.vtt$/i.test(name)) return "vtt";
  return "srt";
}

/** Reads either format into cues, in order of their start. */
export function parseCaptions(text: string, name = ""): { format: CaptionFormat; cues: Cue[] } {
  const format = captionFormat(text, name);
  return { format, cues: format === "vtt" ? parseWebVtt(text) : parseSrt(text) };
}

// ——— times ———

/** `hh:mm:ss.ttt` or `mm:ss.ttt` (WebVTT); `separator` is `,` for SRT (where the hours are required). */
function parseTime(value: string, format: CaptionFormat): number | null {
  const match =
    format === "vtt"
      ? /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/.exec(value)
      : // SRT writes a comma; a full stop is common enough in the wild to take.
        /^(\d{1,3}):([0-5]?\d):([0-5]?\d)[,.](\d{1,3})$/.exec(value);
  if (!match) return null;
  const [, h = "0", m, s, ms] = match;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms.padEnd(3, "0"));
}

/** Milliseconds as WebVTT's `hh:mm:ss.ttt`. */
export function formatVttTime(ms: number) {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(total % 1000, 3)}`;
}

const KNOWN_SETTING =
  /^(?:vertical:(?:rl|lr)|line:-?\d+(?:\.\d+)?%?(?:,(?:start|center|end))?|position:\d+(?:\.\d+)?%(?:,(?:line-left|center|line-right))?|size:\d+(?:\.\d+)?%|align:(?:start|center|end|left|right))$/;

/**
 * A timing line: `start --> end` and, in WebVTT, cue settings after it. Unknown settings are dropped (as a
 * browser would); a time that is not one is an error on this line.
 */
function parseTiming(line: string, lineNumber: number, format: CaptionFormat) {
  const match = /^\s*(\S+)[ \t]+-->[ \t]+(\S+)(.*)$/.exec(line);
  if (!match) throw new CaptionError(line.includes("-->") ? "timestamp" : "timing", lineNumber, quote(line));
  const start = parseTime(match[1], format);
  const end = parseTime(match[2], format);
  if (start === null || end === null) throw new CaptionError("timestamp", lineNumber, quote(line));
  if (end <= start) throw new CaptionError("order", lineNumber, quote(line));
  const settings =
    format === "vtt"
      ? match[3]
          .trim()
          .split(/[ \t]+/)
          .filter((s) => KNOWN_SETTING.test(s))
          .join(" ")
      : "";
  return { start, end, settings };
}

// ——— WebVTT ———

/**
 * WebVTT (https://www.w3.org/TR/webvtt1/, what browsers accept): the `WEBVTT` line, a header, then blocks
 * apart by blank lines: NOTE, STYLE and REGION blocks (skipped), and cues: an optional identifier, the
 * timing line, the text. Overlapping cues are kept; cues are put in order of their start.
 */
export function parseWebVtt(text: string): Cue[] {
  const lines = linesOf(text);
  if (lines.every((l) => !l.trim())) throw new CaptionError("empty", 0);
  if (!/^WEBVTT(?:[ \t]|$)/.test(lines[0])) throw new CaptionError("header", 1, quote(lines[0]));
  let i = 1;
  // The header runs to the first blank line.
  while (i < lines.length && lines[i].trim() !== "") {
    if (lines[i].includes("-->")) throw new CaptionError("header", i + 1, quote(lines[i]));
    i++;
  }
  const cues: Cue[] = [];
  while (i < lines.length) {
    if (lines[i].trim() === "") {
      i++;
      continue;
    }
    const blockStart = i;
    const block: string[] = [];
    while (i < lines.length && lines[i].trim() !== "") block.push(lines[i++]);
    const first = block[0];
    if (/^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first) && !first.includes("-->")) continue;
    // An identifier line, then the timing; or the timing first.
    const timingAt = first.includes("-->") ? 0 : 1;
    // A first line that starts like a time but has no proper arrow is a broken timing line, not an identifier.
    if (timingAt === 1 && /^\s*\d[\d:.,]*\s*[-–—=]*>/.test(first)) throw new CaptionError("timing", blockStart + 1, quote(first));
    if (timingAt === 1 && (block.length < 2 || !block[1].includes("-->"))) {
      throw new CaptionError("timing", blockStart + (block.length < 2 ? 1 : 2), quote(block[1] ?? first));
    }
    const timing = parseTiming(block[timingAt], blockStart + timingAt + 1, "vtt");
    const body = block.slice(timingAt + 1);
    const arrow = body.findIndex((l) => l.includes("-->"));
    // A cue's text never holds "-->": a second timing line means a blank line is missing.
    if (arrow >= 0) throw new CaptionError("timing", blockStart + timingAt + 2 + arrow, quote(body[arrow]));
    addCue(cues, timing, body.join("\n"), blockStart + 1);
  }
  return finish(cues);
}

// ——— SRT ———

/**
 * SRT (SubRip): blocks apart by blank lines, each a counter, `hh:mm:ss,ttt --> hh:mm:ss,ttt` (coordinates
 * after it are ignored) and the text, with `<b>`, `<i>`, `<u>` and `<font>` tags and `{\an8}`-style codes.
 * A block without its counter is taken; one whose timing line is wrong is an error on that line.
 */
export function parseSrt(text: string): Cue[] {
  const lines = linesOf(text);
  if (lines.every((l) => !l.trim())) throw new CaptionError("empty", 0);
  const cues: Cue[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].trim() === "") {
      i++;
      continue;
    }
    const blockStart = i;
    const block: string[] = [];
    while (i < lines.length && lines[i].trim() !== "") block.push(lines[i++]);
    const timingAt = /^\s*\d+\s*$/.test(block[0]) ? 1 : 0;
    const timingLine = block[timingAt];
    if (timingLine === undefined || !timingLine.includes("-->")) {
      throw new CaptionError("timing", blockStart + timingAt + 1, quote(timingLine ?? block[0]));
    }
    // Coordinates (`X1:40 X2:600 Y1:20 Y2:50`) after the times are not WebVTT's: dropped.
    const timing = parseTiming(timingLine.replace(/\s+X1:.*$/i, ""), blockStart + timingAt + 1, "srt");
    const body = block.slice(timingAt + 1);
    addCue(cues, timing, srtPayload(body.join("\n")), blockStart + 1);
  }
  return finish(cues);
}

/** SRT's markup as WebVTT's: `<b>`, `<i>`, `<u>` kept, `<font …>` and `{\…}` codes dropped. */
function srtPayload(text: string) {
  return text
    .replace(/\{\\[^}]*\}/g, "")
    .replace(/<\/?font\b[^>]*>/gi, "")
    .replace(/<(\/?)([biu])>/gi, (_m, slash: string, tag: string) => `<${slash}${tag.toLowerCase()}>`);
}

// ——— both ———

function addCue(cues: Cue[], timing: { start: number; end: number; settings: string }, raw: string, line: number) {
  if (cues.length >= MAX_CUES) throw new CaptionError("too_long", line);
  if (raw.length > MAX_PAYLOAD) throw new CaptionError("too_long", line);
  const payload = cleanPayload(raw);
  // A cue with no text shows nothing: left out.
  if (!cueText(payload)) return;
  cues.push({ ...timing, payload });
}

function finish(cues: Cue[]) {
  if (!cues.length) throw new CaptionError("no_cues", 0);
  // In order of their start (a stable sort keeps the file's order for cues that start together).
  return cues
    .map((c, i) => ({ c, i }))
    .sort((a, b) => a.c.start - b.c.start || a.i - b.i)
    .map(({ c }) => c);
}

/** WebVTT's cue markup that is kept: classes, italics, bold, underline, ruby, voice, language, timestamps. */
const KEPT_TAG =
  /^<(?:\/(?:c|i|b|u|ruby|rt|v|lang)|(?:c|i|b|u|ruby|rt)(?:\.[\w-]+)*|v(?:\.[\w-]+)*[ \t][^<>&]{1,80}|lang(?:\.[\w-]+)*[ \t][A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*|\d{2,}:[0-5]\d:[0-5]\d\.\d{3}|[0-5]\d:[0-5]\d\.\d{3})>$/;

/**
 * The cue's text as it will be written: known tags kept, anything else that looks like a tag and any stray
 * `<`, `>` or `&` escaped; lines trimmed of trailing space; never "-->".
 */
export function cleanPayload(raw: string) {
  const out: string[] = [];
  const pattern = /<[^<>\n]*>|&(?:amp|lt|gt|nbsp|lrm|rlm|quot|apos|#\d{1,7}|#x[\da-fA-F]{1,6});|[<>&]|[^<>&]+/g;
  for (const [token] of raw.matchAll(pattern)) {
    if (token.startsWith("<") && token.length > 1) out.push(KEPT_TAG.test(token) ? token : escapeText(token));
    else if (token === "<" || token === ">" || token === "&") out.push(escapeText(token));
    else out.push(token);
  }
  return out
    .join("")
    .replace(/-->/g, "--&gt;")
    .split("\n")
    .map((l) => l.replace(/[ \t]+$/, ""))
    .join("\n")
    .trim();
}

function escapeText(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", nbsp: " ", lrm: "", rlm: "", quot: '"', apos: "'" };

/** A cue's plain text for the transcript and the search: tags stripped, entities read, one line. */
export function cueText(payload: string) {
  return payload
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[\da-fA-F]+|#\d+|[a-z]+);/g, (whole, name: string) => {
      if (name.startsWith("#")) {
        const code = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
      }
      return ENTITIES[name] ?? whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** The WebVTT file written for cues. */
export function toWebVtt(cues: readonly Cue[]) {
  const blocks = cues.map(
    (c) => `${formatVttTime(c.start)} --> ${formatVttTime(c.end)}${c.settings ? ` ${c.settings}` : ""}\n${c.payload}`,
  );
  return `WEBVTT\n\n${blocks.join("\n\n")}\n`;
}

/** SRT (or WebVTT) text as the WebVTT that is stored. */
export function srtToWebVtt(text: string) {
  return toWebVtt(parseSrt(text));
}
