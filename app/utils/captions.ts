/**
 * Caption files (docs/decisions/036-captions.md): WebVTT read as browsers read it (the W3C parser,
 * app/utils/webvtt.ts), SRT by a small strict reader, and the writer of the WebVTT that is stored. What is
 * kept is made here from the parsed cues (as an uploaded image is re-encoded): only the cue settings we
 * support and known markup tags survive, so the file the browser loads is one we wrote.
 *
 * A WebVTT file is refused only when it is not UTF-8 text, lacks the `WEBVTT` signature, or has no cue that
 * can be shown; a cue that cannot be read or shown is left out and named in a `CaptionWarning` (its line, and
 * why). An SRT file that cannot be read throws a `CaptionError` naming the problem and the line (1-based).
 */
import { parseWebVttFile, SKIPS_KEPT, type VttCue } from "./webvtt";

export type CaptionProblem =
  /** Not UTF-8 text (or binary). */
  | "encoding"
  /** Nothing but blank lines. */
  | "empty"
  /** A WebVTT file whose first line is not `WEBVTT`. */
  | "header"
  /** SRT: a block without a `start --> end` line where one belongs. */
  | "timing"
  /** SRT: a time that is not `hh:mm:ss,ttt`. */
  | "timestamp"
  /** SRT: a cue that ends before it starts. */
  | "order"
  /** SRT: a cue that ends when it starts (it would never be shown). */
  | "zero_length"
  /** Too many cues, or (SRT) a cue far too long. */
  | "too_long"
  /** A file with no cue that can be shown. */
  | "no_cues";

/**
 * Why a WebVTT cue or block was left out: `timing`, a timing line that cannot be read; `not_cue`, text without
 * a timing line; `late_block`, a STYLE or REGION block after the first cue; `order`, a cue that ends before it
 * starts; `zero_length`, one that ends when it starts; `no_text`, one without text; `too_long`, one with more
 * than 2,000 characters; `range`, a time too far out to keep.
 */
export const CAPTION_WARNING_PROBLEMS = [
  "timing",
  "not_cue",
  "late_block",
  "order",
  "zero_length",
  "no_text",
  "too_long",
  "range",
] as const;
export type CaptionWarningProblem = (typeof CAPTION_WARNING_PROBLEMS)[number];

export interface CaptionWarning {
  problem: CaptionWarningProblem;
  /** The file's line (1-based): the timing line of a cue, the first line of a block. */
  line: number;
  /** That line as it was (cut to 60 characters), to quote in the message. */
  text: string;
}

export class CaptionError extends Error {
  constructor(
    readonly problem: CaptionProblem,
    /** The line of the file that is wrong (1-based); 0 for the whole file. */
    readonly line: number,
    /** That line as it was (cut to 60 characters), to quote in the message. */
    readonly text = "",
    /** For `no_cues`: what was left out, and why (the first `WARNINGS_KEPT`), and how much in all. */
    readonly warnings: readonly CaptionWarning[] = [],
    readonly warningCount = warnings.length,
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
  /** Cue settings as written (`line:0 align:start`): the ones we keep, from the parsed values. */
  settings: string;
}

export type CaptionFormat = "vtt" | "srt";

/** The most cues one file may hold (a two-hour film has about 2,000). */
export const MAX_CUES = 20_000;
/** The longest text one cue may have, in characters. */
const MAX_PAYLOAD = 2_000;

/**
 * Bytes to text: UTF-8 only (one BOM taken off, as the spec's UTF-8 decode does); a byte that is not UTF-8
 * names its line. NUL is text to WebVTT (read as U+FFFD) and to SRT alike.
 */
export function decodeCaptionBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    let line = 1;
    for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) line++;
    throw new CaptionError("encoding", bad < bytes.length ? line : 0);
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence (its length when none). */
export function firstInvalidUtf8(bytes: Uint8Array) {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    // Sequence length and the range of the second byte (no overlongs, no surrogates, nothing past U+10FFFF).
    const [length, low, high] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : b === 0xed
            ? [3, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [3, 0x80, 0xbf]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b >= 0xf1 && b <= 0xf3
                  ? [4, 0x80, 0xbf]
                  : b === 0xf4
                    ? [4, 0x80, 0x8f]
                    : [0, 0, 0];
    if (!length || i + length > bytes.length || bytes[i + 1] < low || bytes[i + 1] > high) return i;
    for (let k = 2; k < length; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return i;
    i += length;
  }
  return i;
}

/** The file's lines, without a BOM, CRLF and CR taken as line ends. */
function linesOf(text: string) {
  return text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
}

/** A line as a message quotes it: control characters as spaces, trimmed, at most 60 characters. */
const quote = (line: string) =>
  line
    .slice(0, 200)
    .replace(/\p{Cc}/gu, " ")
    .trim()
    .slice(0, 60);

/** WebVTT's format, or SRT's: decided by the signature (`WEBVTT` at the start), else by the file's name. */
export function captionFormat(text: string, name = ""): CaptionFormat {
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(text.slice(0, 7))) return "vtt";
  if (/\.vtt$/i.test(name)) return "vtt";
  return "srt";
}

/** The most warnings a reading keeps (a hostile file can have hundreds of thousands; the count has them all). */
export const WARNINGS_KEPT = SKIPS_KEPT;

export interface LeftOut {
  /** The first `WARNINGS_KEPT` things left out (WebVTT only: SRT refuses instead), in the file's order. */
  warnings: CaptionWarning[];
  /** How many in all. */
  warningCount: number;
}

export interface ReadCaptions extends LeftOut {
  format: CaptionFormat;
  /** In order of their start. */
  cues: Cue[];
}

/** Reads either format. */
export function parseCaptions(text: string, name = ""): ReadCaptions {
  const format = captionFormat(text, name);
  if (format === "vtt") return { format, ...parseWebVtt(text) };
  return { format, cues: parseSrt(text), warnings: [], warningCount: 0 };
}

// ——— times ———

/** SRT's `hh:mm:ss,ttt` (a full stop for the comma is common enough in the wild to take). */
function parseSrtTime(value: string): number | null {
  const match = /^(\d{1,3}):([0-5]?\d):([0-5]?\d)[,.](\d{1,3})$/.exec(value);
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

/** A setting's number as written back: plain digits, at most three decimals; null when too large to write so. */
function settingNumber(n: number) {
  const text = n.toFixed(3).replace(/\.?0+$/, "");
  return /^-?\d+(?:\.\d+)?$/.test(text) ? (text === "-0" ? "0" : text) : null;
}

/**
 * The settings we keep of a parsed cue, written from its values (defaults left out): vertical, line (and its
 * alignment), position (and its alignment), size and align. Regions are not kept (no REGION blocks are written).
 */
export function cueSettings(cue: VttCue) {
  const out: string[] = [];
  if (cue.vertical) out.push(`vertical:${cue.vertical}`);
  const line = cue.line === "auto" ? null : settingNumber(cue.line);
  if (line !== null) out.push(`line:${line}${cue.snapToLines ? "" : "%"}${cue.lineAlign === "start" ? "" : `,${cue.lineAlign}`}`);
  const position = cue.position === "auto" ? null : settingNumber(cue.position);
  if (position !== null) out.push(`position:${position}%${cue.positionAlign === "auto" ? "" : `,${cue.positionAlign}`}`);
  const size = settingNumber(cue.size);
  if (cue.size !== 100 && size !== null) out.push(`size:${size}%`);
  if (cue.align !== "center") out.push(`align:${cue.align}`);
  return out.join(" ");
}

// ——— WebVTT ———

/**
 * WebVTT as a browser reads it (app/utils/webvtt.ts), then what we keep: cues that can be shown (a time we can
 * store, an end after the start, some text, at most 2,000 characters), in order of their start. The rest is
 * left out with a warning naming its line. Refused: no signature, nothing but blank lines, no cue to keep, or
 * more than 20,000 cues.
 */
export function parseWebVtt(text: string): { cues: Cue[] } & LeftOut {
  if (!text.trim()) throw new CaptionError("empty", 0);
  const file = parseWebVttFile(text);
  if (!file) throw new CaptionError("header", 1, quote(text.slice(0, text.search(/[\r\n]|$/))));
  const { skipped } = file;
  const warnings: CaptionWarning[] = [];
  let warningCount = file.skippedCount;
  // The blocks passed over and the cues left out, merged in the file's order (both lists are in it). The first
  // WARNINGS_KEPT of the merge are exact: the parser kept as many skips, so none before them is missing.
  const warn = (w: CaptionWarning) => {
    if (warnings.length < WARNINGS_KEPT) warnings.push(w);
  };
  const skip = (k: number) => warn({ problem: skipped[k].reason, line: skipped[k].line, text: quote(skipped[k].text) });
  const cues: Cue[] = [];
  let k = 0;
  for (const cue of file.cues) {
    for (; k < skipped.length && skipped[k].line < cue.at; k++) skip(k);
    const kept = keptCue(cue);
    if ("problem" in kept) {
      warningCount++;
      warn({ problem: kept.problem, line: cue.at, text: quote(cue.timing) });
    } else if (cues.length >= MAX_CUES) throw new CaptionError("too_long", cue.at);
    else cues.push(kept);
  }
  for (; k < skipped.length; k++) skip(k);
  if (!cues.length) throw new CaptionError("no_cues", 0, "", warnings, warningCount);
  return { cues: inOrder(cues), warnings, warningCount };
}

/** A parsed cue as it is kept, or why it is not. */
function keptCue(cue: VttCue): Cue | { problem: CaptionWarningProblem } {
  if (!(cue.endMs <= Number.MAX_SAFE_INTEGER)) return { problem: "range" };
  if (cue.endMs < cue.startMs) return { problem: "order" };
  if (cue.endMs === cue.startMs) return { problem: "zero_length" };
  if (cue.text.length > MAX_PAYLOAD) return { problem: "too_long" };
  const payload = cleanPayload(cue.text);
  if (!cueText(payload)) return { problem: "no_text" };
  return { start: cue.startMs, end: cue.endMs, payload, settings: cueSettings(cue) };
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
    const timing = parseSrtTiming(timingLine.replace(/\s+X1:.*$/i, ""), blockStart + timingAt + 1);
    const body = block.slice(timingAt + 1);
    if (cues.length >= MAX_CUES) throw new CaptionError("too_long", blockStart + 1);
    const raw = body.join("\n");
    if (raw.length > MAX_PAYLOAD) throw new CaptionError("too_long", blockStart + 1);
    const payload = cleanPayload(srtPayload(raw));
    // A cue with no text shows nothing: left out.
    if (cueText(payload)) cues.push({ ...timing, payload, settings: "" });
  }
  if (!cues.length) throw new CaptionError("no_cues", 0);
  return inOrder(cues);
}

/** An SRT timing line: `start --> end`; a time that is not one, or an end not after the start, is an error on this line. */
function parseSrtTiming(line: string, lineNumber: number) {
  const match = /^\s*(\S+)[ \t]+-->[ \t]+(\S+)/.exec(line);
  if (!match) throw new CaptionError(line.includes("-->") ? "timestamp" : "timing", lineNumber, quote(line));
  const start = parseSrtTime(match[1]);
  const end = parseSrtTime(match[2]);
  if (start === null || end === null) throw new CaptionError("timestamp", lineNumber, quote(line));
  if (end < start) throw new CaptionError("order", lineNumber, quote(line));
  if (end === start) throw new CaptionError("zero_length", lineNumber, quote(line));
  return { start, end };
}

/** SRT's markup as WebVTT's: `<b>`, `<i>`, `<u>` kept, `<font …>` and `{\…}` codes dropped. */
function srtPayload(text: string) {
  return text
    .replace(/\{\\[^}]*\}/g, "")
    .replace(/<\/?font\b[^>]*>/gi, "")
    .replace(/<(\/?)([biu])>/gi, (_m, slash: string, tag: string) => `<${slash}${tag.toLowerCase()}>`);
}

// ——— both ———

/** In order of their start (a stable sort keeps the file's order for cues that start together). */
function inOrder(cues: Cue[]) {
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
 * `<`, `>` or `&` escaped; lines trimmed of trailing space, blank ones dropped (a blank line would end the cue
 * in the file we write); never "-->".
 */
export function cleanPayload(raw: string) {
  // A tag, an entity, or a lone `<`, `>`, `&`; the text between is kept as it is.
  const pattern = /<[^<>\n]*>|&(?:amp|lt|gt|nbsp|lrm|rlm|quot|apos|#\d{1,7}|#x[\da-fA-F]{1,6});|[<>&]/g;
  return raw
    .replace(pattern, (token) => {
      if (token.length === 1) return escapeText(token);
      if (token[0] === "<") return KEPT_TAG.test(token) ? token : escapeText(token);
      return token;
    })
    .replace(/-->/g, "--&gt;")
    .split("\n")
    .map((l) => l.replace(/[ \t]+$/, ""))
    .filter((l) => l.trim() !== "")
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
