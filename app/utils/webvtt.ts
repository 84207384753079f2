/**
 * The WebVTT parser of the W3C specification, step by step (https://w3c.github.io/webvtt/#file-parsing): what
 * a browser makes of a file, judged by web-platform-tests' webvtt/parsing/file-parsing cases
 * (tests/unit/webvtt-wpt.test.ts). Only a file without the `WEBVTT` signature is refused (`null`); anything
 * else is read the way a browser reads it, and a block that is not a cue is passed over, noted in `skipped`
 * with its line so the upload can say what was left out (docs/decisions/036-captions.md).
 *
 * Linear in the input: every line is read at most twice (the algorithm steps back over one line when a block
 * ends at a timing line), regions are found by id in a map, and no regular expression here can backtrack
 * more than linearly. The caller bounds the input's size.
 */

export interface VttRegion {
  id: string;
  width: number;
  lines: number;
  regionAnchorX: number;
  regionAnchorY: number;
  viewportAnchorX: number;
  viewportAnchorY: number;
  scroll: "" | "up";
}

/** A cue as the spec's parser makes it, its attributes named as the `VTTCue` interface names them. */
export interface VttCue {
  id: string;
  /** Seconds, as `VTTCue.startTime`. */
  startTime: number;
  endTime: number;
  /** Milliseconds (a whole number for any time below 2^53 ms). */
  startMs: number;
  endMs: number;
  /** The cue text, unparsed (its markup as written). */
  text: string;
  vertical: "" | "rl" | "lr";
  snapToLines: boolean;
  line: number | "auto";
  lineAlign: "start" | "center" | "end";
  position: number | "auto";
  positionAlign: "line-left" | "center" | "line-right" | "auto";
  size: number;
  align: "start" | "center" | "end" | "left" | "right";
  region: VttRegion | null;
  /** The file's line (1-based) of the cue's timing line, and that line as written. */
  at: number;
  timing: string;
}

/**
 * A block the parser passed over: `timing`, a timing line that cannot be read (the cue is dropped); `not_cue`,
 * text without a timing line; `late_block`, a STYLE or REGION block after the first cue (which the spec
 * ignores). NOTE blocks and the header are not reported.
 */
export interface VttSkip {
  reason: "timing" | "not_cue" | "late_block";
  /** The file's line (1-based). */
  line: number;
  /** That line as it was. */
  text: string;
}

export interface VttFile {
  cues: VttCue[];
  regions: VttRegion[];
  /** The text of the STYLE blocks (CSS, not used by Lectern). */
  stylesheets: string[];
  /** The first `SKIPS_KEPT` blocks passed over, in the file's order. */
  skipped: VttSkip[];
  /** How many blocks were passed over in all. */
  skippedCount: number;
}

/** The most passed-over blocks a result lists (a hostile file can have hundreds of thousands; the count has them all). */
export const SKIPS_KEPT = 1000;

interface Parser {
  input: string;
  pos: number;
  /** The file's line (1-based) at `pos`. */
  lineNo: number;
  seenCue: boolean;
  regions: VttRegion[];
  regionsById: Map<string, VttRegion>;
}

type Block =
  | { kind: "cue"; cue: VttCue }
  | { kind: "style"; text: string }
  | { kind: "region"; region: VttRegion }
  | { kind: "none"; failed: VttSkip | null; first: string; firstLine: number };

const LF = "\n";
/** ASCII whitespace (HTML's "space characters"): what "skip whitespace" and "split on spaces" mean. */
const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\f" || c === "\r";
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const SPACES = /[\t\n\f\r ]+/;

/** The WebVTT parser algorithm (spec 6.1). `null`: the file does not start with the WebVTT signature. */
export function parseWebVttFile(text: string): VttFile | null {
  // 1. NULs become U+FFFD; CRLF and CR become LF.
  const input = text.replace(/\0/g, "\uFFFD").replace(/\r\n?/g, LF);
  const file: VttFile = { cues: [], regions: [], stylesheets: [], skipped: [], skippedCount: 0 };
  // 4–6. The signature: `WEBVTT` alone, or followed by a space, a tab or a line end.
  if (input.length < 6 || !input.startsWith("WEBVTT")) return null;
  if (input.length > 6 && input[6] !== " " && input[6] !== "\t" && input[6] !== LF) return null;
  const p: Parser = { input, pos: 0, lineNo: 1, seenCue: false, regions: file.regions, regionsById: new Map() };
  // 7–10. The rest of the signature line.
  const eol = input.indexOf(LF);
  if (eol < 0) return file;
  p.pos = eol + 1;
  p.lineNo = 2;
  if (p.pos >= input.length) return file;
  // 11. The header: a block read "in header" (its lines are ignored), or a blank line.
  if (input[p.pos] !== LF) collectBlock(p, true);
  else advanceLine(p);
  // 12–14. Blocks, apart by blank lines.
  skipLineFeeds(p);
  while (p.pos < input.length) {
    const block = collectBlock(p, false);
    if (block.kind === "cue") file.cues.push(block.cue);
    else if (block.kind === "style") file.stylesheets.push(block.text);
    else if (block.kind === "region") {
      file.regions.push(block.region);
      p.regionsById.set(block.region.id, block.region);
    } else {
      const skip = passedOver(block, p.seenCue);
      if (skip && file.skippedCount++ < SKIPS_KEPT) file.skipped.push(skip);
    }
    skipLineFeeds(p);
  }
  return file;
}

function advanceLine(p: Parser) {
  p.pos++;
  p.lineNo++;
}

function skipLineFeeds(p: Parser) {
  while (p.pos < p.input.length && p.input[p.pos] === LF) advanceLine(p);
}

/** Why a block that is neither cue, style sheet nor region was passed over, or null when it is nothing to report. */
function passedOver(block: Extract<Block, { kind: "none" }>, seenCue: boolean): VttSkip | null {
  if (block.failed) return block.failed;
  if (!block.first || /^NOTE(?:[ \t]|$)/.test(block.first)) return null;
  if (/^(?:STYLE|REGION)[\t\f ]*$/.test(block.first))
    return seenCue ? { reason: "late_block", line: block.firstLine, text: block.first } : null;
  return { reason: "not_cue", line: block.firstLine, text: block.first };
}

/** "Collect a WebVTT block" (spec 6.1), optionally "in header". */
function collectBlock(p: Parser, inHeader: boolean): Block {
  const { input } = p;
  let lineCount = 0;
  let previous = p.pos;
  let previousLineNo = p.lineNo;
  let buffer = "";
  let seenArrow = false;
  let cue: VttCue | null = null;
  let stylesheet = false;
  let region: VttRegion | null = null;
  let failed: VttSkip | null = null;
  let first = "";
  const firstLine = p.lineNo;
  for (;;) {
    // 1–3. A line, and past its line feed (or the end).
    const end = input.indexOf(LF, p.pos);
    const line = input.slice(p.pos, end < 0 ? input.length : end);
    const lineNo = p.lineNo;
    const seenEof = end < 0;
    if (seenEof) p.pos = input.length;
    else advanceLineTo(p, end + 1);
    lineCount++;
    if (lineCount === 1) first = line;
    if (line.includes("-->")) {
      // 4. A timing line: the cue's, if it is the first line or the second after an identifier; else the next block's.
      if (!inHeader && (lineCount === 1 || (lineCount === 2 && !seenArrow))) {
        seenArrow = true;
        previous = p.pos;
        previousLineNo = p.lineNo;
        cue = newCue(buffer, lineNo, line);
        if (collectTimingsAndSettings(line, cue, p.regionsById)) {
          buffer = "";
          p.seenCue = true;
        } else {
          cue = null;
          failed = { reason: "timing", line: lineNo, text: line };
        }
      } else {
        p.pos = previous;
        p.lineNo = previousLineNo;
        break;
      }
    } else if (line === "") {
      break;
    } else {
      // 6. A STYLE or REGION block is known by its first line, before any cue.
      if (!inHeader && lineCount === 2 && !p.seenCue) {
        if (/^STYLE[\t\n\f\r ]*$/.test(buffer)) {
          stylesheet = true;
          buffer = "";
        } else if (/^REGION[\t\n\f\r ]*$/.test(buffer)) {
          region = newRegion();
          buffer = "";
        }
      }
      if (buffer !== "") buffer += LF;
      buffer += line;
      previous = p.pos;
      previousLineNo = p.lineNo;
    }
    if (seenEof) break;
  }
  if (cue) {
    cue.text = buffer;
    return { kind: "cue", cue };
  }
  if (stylesheet) return { kind: "style", text: buffer };
  if (region) {
    collectRegionSettings(buffer, region);
    return { kind: "region", region };
  }
  return { kind: "none", failed, first, firstLine };
}

function advanceLineTo(p: Parser, pos: number) {
  p.pos = pos;
  p.lineNo++;
}

function newCue(id: string, at: number, timing: string): VttCue {
  return {
    id,
    startTime: 0,
    endTime: 0,
    startMs: 0,
    endMs: 0,
    text: "",
    vertical: "",
    snapToLines: true,
    line: "auto",
    lineAlign: "start",
    position: "auto",
    positionAlign: "auto",
    size: 100,
    align: "center",
    region: null,
    at,
    timing,
  };
}

function newRegion(): VttRegion {
  return { id: "", width: 100, lines: 3, regionAnchorX: 0, regionAnchorY: 100, viewportAnchorX: 0, viewportAnchorY: 100, scroll: "" };
}

// ——— 6.2 region settings ———

/** "Parse a percentage string": digits, optionally a fraction, then `%`; 0 to 100. */
function percentage(value: string): number | null {
  if (!/^\d+(?:\.\d+)?%$/.test(value)) return null;
  const n = Number(value.slice(0, -1));
  return n >= 0 && n <= 100 ? n + 0 : null;
}

/** A `x%,y%` pair, or null. */
function anchor(value: string): [number, number] | null {
  const comma = value.indexOf(",");
  if (comma < 0) return null;
  const x = percentage(value.slice(0, comma));
  const y = percentage(value.slice(comma + 1));
  return x === null || y === null ? null : [x, y];
}

/** Splits settings on spaces into name and value, skipping any without a colon inside. */
function* settingsOf(input: string) {
  for (const setting of input.split(SPACES)) {
    const colon = setting.indexOf(":");
    if (colon <= 0 || colon === setting.length - 1) continue;
    yield [setting.slice(0, colon), setting.slice(colon + 1)] as const;
  }
}

function collectRegionSettings(input: string, region: VttRegion) {
  for (const [name, value] of settingsOf(input)) {
    if (name === "id") region.id = value;
    else if (name === "width") region.width = percentage(value) ?? region.width;
    else if (name === "lines") {
      if (/^\d+$/.test(value)) region.lines = Number(value);
    } else if (name === "regionanchor") {
      const point = anchor(value);
      if (point) [region.regionAnchorX, region.regionAnchorY] = point;
    } else if (name === "viewportanchor") {
      const point = anchor(value);
      if (point) [region.viewportAnchorX, region.viewportAnchorY] = point;
    } else if (name === "scroll" && value === "up") region.scroll = "up";
  }
}

// ——— 6.3 cue timings and settings ———

interface Cursor {
  input: string;
  pos: number;
}

function skipWhitespace(c: Cursor) {
  while (c.pos < c.input.length && isSpace(c.input[c.pos])) c.pos++;
}

function digits(c: Cursor) {
  const from = c.pos;
  while (isDigit(c.input[c.pos])) c.pos++;
  return c.input.slice(from, c.pos);
}

/** "Collect a WebVTT timestamp": milliseconds, or null. */
function timestamp(c: Cursor): number | null {
  if (!isDigit(c.input[c.pos])) return null;
  const first = digits(c);
  let v1 = Number(first);
  const hours = first.length !== 2 || v1 > 59;
  if (c.input[c.pos] !== ":") return null;
  c.pos++;
  const second = digits(c);
  if (second.length !== 2) return null;
  let v2 = Number(second);
  let v3: number;
  if (hours || c.input[c.pos] === ":") {
    if (c.input[c.pos] !== ":") return null;
    c.pos++;
    const third = digits(c);
    if (third.length !== 2) return null;
    v3 = Number(third);
  } else {
    v3 = v2;
    v2 = v1;
    v1 = 0;
  }
  if (c.input[c.pos] !== ".") return null;
  c.pos++;
  const fraction = digits(c);
  if (fraction.length !== 3) return null;
  if (v2 > 59 || v3 > 59) return null;
  return ((v1 * 60 + v2) * 60 + v3) * 1000 + Number(fraction);
}

/** "Collect WebVTT cue timings and settings": false when the line is not a timing line. */
function collectTimingsAndSettings(line: string, cue: VttCue, regions: ReadonlyMap<string, VttRegion>) {
  const c: Cursor = { input: line, pos: 0 };
  skipWhitespace(c);
  const start = timestamp(c);
  if (start === null) return false;
  skipWhitespace(c);
  if (!line.startsWith("-->", c.pos)) return false;
  c.pos += 3;
  skipWhitespace(c);
  const end = timestamp(c);
  if (end === null) return false;
  cue.startMs = start;
  cue.endMs = end;
  // Seconds as the nearest double to the exact value (`VTTCue.startTime`), which ms / 1000 always is.
  cue.startTime = start / 1000;
  cue.endTime = end / 1000;
  parseCueSettings(line.slice(c.pos), cue, regions);
  return true;
}

/** A `line` setting's position: a percentage, or a number of lines (`-1`, `0`, `1.5`); null when neither. */
function linePosition(linepos: string): number | null {
  if (!/\d/.test(linepos)) return null;
  if (linepos.endsWith("%")) return percentage(linepos);
  if (/[^-\d.]/.test(linepos) || linepos.indexOf("-", 1) >= 0) return null;
  const dot = linepos.indexOf(".");
  if (dot >= 0 && (linepos.indexOf(".", dot + 1) >= 0 || !isDigit(linepos[dot - 1]) || !isDigit(linepos[dot + 1]))) return null;
  const n = Number(linepos);
  // HTML's rules for floating-point numbers: no -0, and a value rounding to infinity is an error.
  return Number.isFinite(n) ? n + 0 : null;
}

/** Splits `value` at its first comma. */
function pair(value: string): [string, string | null] {
  const comma = value.indexOf(",");
  return comma < 0 ? [value, null] : [value.slice(0, comma), value.slice(comma + 1)];
}

const LINE_ALIGN = ["start", "center", "end"] as const;
const POSITION_ALIGN = ["line-left", "center", "line-right"] as const;
const ALIGN = ["start", "center", "end", "left", "right"] as const;
const member = <T extends string>(list: readonly T[], value: string | null): T | undefined => list.find((v) => v === value);

/** "Parse the WebVTT cue settings". */
function parseCueSettings(input: string, cue: VttCue, regions: ReadonlyMap<string, VttRegion>) {
  for (const [name, value] of settingsOf(input)) {
    if (name === "region") cue.region = regions.get(value) ?? null;
    else if (name === "vertical") {
      if (value === "rl" || value === "lr") cue.vertical = value;
      if (cue.vertical) cue.region = null;
    } else if (name === "line") {
      const [linepos, linealign] = pair(value);
      const number = linePosition(linepos);
      const align = member(LINE_ALIGN, linealign);
      if (number === null || (linealign !== null && !align)) continue;
      if (align) cue.lineAlign = align;
      cue.line = number;
      cue.snapToLines = !linepos.endsWith("%");
      cue.region = null;
    } else if (name === "position") {
      const [colpos, colalign] = pair(value);
      const number = percentage(colpos);
      const align = member(POSITION_ALIGN, colalign);
      if (number === null || (colalign !== null && !align)) continue;
      if (align) cue.positionAlign = align;
      cue.position = number;
    } else if (name === "size") {
      const number = percentage(value);
      if (number === null) continue;
      cue.size = number;
      if (number !== 100) cue.region = null;
    } else if (name === "align") {
      cue.align = member(ALIGN, value) ?? cue.align;
    }
  }
}
