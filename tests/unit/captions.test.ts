import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  CaptionError,
  captionFormat,
  cleanPayload,
  cueText,
  decodeCaptionBytes,
  firstInvalidUtf8,
  formatVttTime,
  parseCaptions,
  parseSrt,
  parseWebVtt,
  srtToWebVtt,
  toWebVtt,
} from "~/utils/captions";
import { chooseTracks, readCaptionFile } from "~/models/captions.server";
import { worstCaptionFiles } from "../../scripts/bench/captions";
import { activeCue } from "~/components/player/captions";

/** The caption reader and writer (docs/decisions/036-captions.md) on files as they come from the tools people use. */

// As YouTube's "download captions" writes them: a header with metadata, cue settings, inline timestamps
// and <c> spans, overlapping roll-up cues.
const youtube = [
  "WEBVTT",
  "Kind: captions",
  "Language: en",
  "",
  "00:00:00.030 --> 00:00:02.510 align:start position:0%",
  "welcome<00:00:00.560><c> to</c><00:00:00.800><c> the</c>",
  "",
  "00:00:02.510 --> 00:00:05.000 align:start position:0%",
  "welcome to the",
  "safety<00:00:03.100><c> briefing</c>",
  "",
].join("\n");

// As a subtitle editor saves SRT on Windows: a BOM, CRLF, <i>, <font>, {\an8}, an empty line at the end.
const srt =
  '\uFEFF1\r\n00:00:01,000 --> 00:00:03,500\r\n<i>Hello,</i> and <font color="#ffff00">welcome</font>.\r\n\r\n' +
  "2\r\n00:00:03,600 --> 00:00:06,000\r\n{\\an8}Put your <b>gloves</b> on\r\nbefore you start.\r\n\r\n" +
  "3\r\n00:00:05,500 --> 00:00:07,250 X1:40 X2:600 Y1:20 Y2:50\r\nAT&T & co <3\r\n\r\n";

const bytes = (text: string) => decodeCaptionBytes(Buffer.from(text, "utf8"));
const wpt = (name: string) => fs.readFileSync(path.resolve(__dirname, "../fixtures/webvtt-wpt", name));

describe("WebVTT", () => {
  it("reads a real-world file: header, settings, inline timestamps and classes, overlapping cues", () => {
    const { cues, warnings } = parseWebVtt(youtube);
    expect(warnings).toEqual([]);
    expect(cues).toHaveLength(2);
    expect(cues[0]).toMatchObject({ start: 30, end: 2510, settings: "position:0% align:start" });
    expect(cueText(cues[0].payload)).toBe("welcome to the");
    expect(cueText(cues[1].payload)).toBe("welcome to the safety briefing");
  });

  it("takes a BOM, CRLF and CR line ends, identifiers, NOTE, STYLE and REGION blocks, hours left out", () => {
    const file =
      "\uFEFFWEBVTT - Safety\r\n\r\nSTYLE\r\n::cue { color: yellow }\r\n\r\nREGION\rid:fred width:40%\r\r" +
      "NOTE written by hand\r\nover two lines\r\n\r\nintro\r\n00:01.000 --> 00:04.000 line:-2 bogus:1 align:center\r\n" +
      "<v Mia Hansen>Good morning!</v>\r\n<v.loud Jonas>Hi <i>all</i></v>\r\n\r\n" +
      "01:00:00.000 --> 01:00:01.500\r\n&lt;beep&gt; &amp; done&nbsp;now\r\n";
    const { cues, warnings } = parseWebVtt(bytes(file));
    expect(warnings).toEqual([]);
    expect(cues.map((c) => [c.start, c.end, c.settings])).toEqual([
      [1000, 4000, "line:-2"],
      [3_600_000, 3_601_500, ""],
    ]);
    expect(cues[0].payload).toBe("<v Mia Hansen>Good morning!</v>\n<v.loud Jonas>Hi <i>all</i></v>");
    expect(cueText(cues[0].payload)).toBe("Good morning! Hi all");
    expect(cueText(cues[1].payload)).toBe("<beep> & done now");
  });

  it("keeps overlapping cues and puts cues in order of their start", () => {
    const { cues } = parseWebVtt(
      "WEBVTT\n\n00:00:05.000 --> 00:00:08.000\nsecond\n\n00:00:01.000 --> 00:00:09.000\nfirst, long\n\n00:00:05.000 --> 00:00:06.000\nthird\n",
    );
    expect(cues.map((c) => cueText(c.payload))).toEqual(["first, long", "second", "third"]);
  });

  // Issue 44, item 6: files browsers play were refused with 422 "has a time that is not valid" (the probe's
  // reproductions, web-platform-tests' arrows.vtt, newlines.vtt, whitespace-chars.vtt). Now they are read as a
  // browser reads them: the cues it shows are kept, the blocks it passes over are named with their lines.
  it("takes the files browsers play that were refused: wpt's arrows.vtt, newlines.vtt, whitespace-chars.vtt", () => {
    const arrows = readCaptionFile(wpt("arrows.vtt"), "arrows.vtt");
    expect(arrows.cues.map((c) => cueText(c.payload))).toEqual(["text1", "text2", "text3", "text4", "text5", "text6"]);
    expect(arrows.warnings.map((w) => [w.problem, w.line, w.text])).toEqual([
      ["timing", 3, "-->"],
      ["timing", 6, "foo-->"],
      ["timing", 9, "-->foo"],
      ["timing", 12, "--->"],
      ["timing", 15, "-->-->"],
      ["timing", 21, "00:00:00.000 -a -->"],
      ["timing", 23, "00:00:00.000 --a -->"],
      ["timing", 25, "00:00:00.000 - -->"],
      ["timing", 27, "00:00:00.000 -- -->"],
    ]);
    const newlines = readCaptionFile(wpt("newlines.vtt"), "newlines.vtt");
    expect(newlines.cues.map((c) => [c.start, c.end, c.payload])).toEqual(["text0", "text1", "text2", "text3"].map((t) => [0, 1000, t]));
    expect(newlines.warnings).toEqual([]);
    const whitespace = readCaptionFile(wpt("whitespace-chars.vtt"), "whitespace-chars.vtt");
    expect(whitespace.cues.map((c) => c.payload)).toEqual(["text0", "text1", "text2"]);
    // The vertical tab is not whitespace to WebVTT: that cue's timing line cannot be read.
    // (Control characters are quoted as spaces.)
    expect(whitespace.warnings).toEqual([{ problem: "timing", line: 16, text: "00:00:00.000    -->  00:00:01.000" }]);
  });

  it("leaves out a stray bad cue, naming its line and why, and keeps the rest", () => {
    const file = [
      "WEBVTT", // 1
      "",
      "00:00:01.000 --> 00:00:02.000", // 3
      "fine",
      "",
      "00:00:03,000 --> 00:00:04.000", // 6: a comma
      "comma",
      "",
      "00:61:01.000 --> 00:62:02.000", // 9: minutes past 59
      "minutes",
      "",
      "00:00:05.000 -> 00:00:06.000", // 12: no arrow, so text without a timing line
      "arrow",
      "",
      "00:00:08.000 --> 00:00:07.000", // 15: ends before it starts
      "backwards",
      "",
      "00:00:09.000 --> 00:00:09.000", // 18: ends as it starts
      "zero",
      "",
      "00:00:10.000 --> 00:00:11.000", // 21: no text
      "<i> </i>",
      "",
      "00:00:12.000 --> 00:00:13.000", // 24
      "one",
      "00:00:13.000 --> 00:00:14.000", // 26: no blank line before it: a cue of its own, as browsers read it
      "two",
      "",
      "STYLE", // 29: too late for a style sheet
      "::cue { color: red }",
    ].join("\n");
    const { cues, warnings } = parseWebVtt(file);
    expect(cues.map((c) => [c.start, cueText(c.payload)])).toEqual([
      [1000, "fine"],
      [12_000, "one"],
      [13_000, "two"],
    ]);
    expect(warnings.map((w) => [w.problem, w.line, w.text])).toEqual([
      ["timing", 6, "00:00:03,000 --> 00:00:04.000"],
      ["timing", 9, "00:61:01.000 --> 00:62:02.000"],
      ["not_cue", 12, "00:00:05.000 -> 00:00:06.000"],
      ["order", 15, "00:00:08.000 --> 00:00:07.000"],
      ["zero_length", 18, "00:00:09.000 --> 00:00:09.000"],
      ["no_text", 21, "00:00:10.000 --> 00:00:11.000"],
      ["late_block", 29, "STYLE"],
    ]);
  });

  it("lists the first 1,000 things left out, in the file's order, and counts them all", () => {
    // 3,000 broken cues and, among them, 2,000 that end before they start (left out after reading).
    const blocks = Array.from({ length: 5000 }, (_, i) =>
      i % 5 === 0
        ? `00:00:0${i % 2}.000 --> 00:00:02.000\nok ${i}`
        : i % 5 < 3
          ? `00:00:02.000 --> 00:00:01.000\nback ${i}`
          : `00:0x --> 00:01.000\nbad ${i}`,
    );
    const { cues, warnings, warningCount } = parseWebVtt(`WEBVTT\n\n${blocks.join("\n\n")}\n`);
    expect([cues.length, warnings.length, warningCount]).toEqual([1000, 1000, 4000]);
    expect(warnings.map((w) => w.line)).toEqual([...warnings.map((w) => w.line)].sort((a, b) => a - b));
    // Block i starts at line 3 + 3i; the 1,000th thing left out is block 1249 (four in every five blocks).
    expect(warnings[0]).toMatchObject({ problem: "order", line: 6 });
    expect(warnings[999]).toMatchObject({ problem: "timing", line: 3 + 3 * 1249 });
  });

  it("refuses only a file without the signature, one of blank lines, or one with no cue to keep (saying why)", () => {
    const refusal = (file: string) => {
      try {
        parseWebVtt(file);
      } catch (error) {
        expect(error).toBeInstanceOf(CaptionError);
        const e = error as CaptionError;
        return [e.problem, e.line, e.text, e.warnings.map((w) => w.problem)];
      }
      throw new Error("no error");
    };
    expect(refusal("WEBVT\n\n00:00:01.000 --> 00:00:02.000\nx\n")).toEqual(["header", 1, "WEBVT", []]);
    expect(refusal("WEBVTTX\n")).toEqual(["header", 1, "WEBVTTX", []]);
    expect(refusal("WEBVTT\n\nNOTE only a note\n")).toEqual(["no_cues", 0, "", []]);
    expect(refusal("WEBVTT\n\n00:00:01.5 --> 00:00:02.000\nshort millis\n")).toEqual(["no_cues", 0, "", ["timing"]]);
    expect(refusal(" \n\n")).toEqual(["empty", 0, "", []]);
    // A timing line right after the signature is a cue, as browsers read it (wpt header-timings).
    expect(parseWebVtt("WEBVTT\n00:00:01.000 --> 00:00:02.000\nx\n").cues).toHaveLength(1);
  });

  it("reads the worst content that fits in 1 MiB to an answer: cues, or a refusal that says why", () => {
    // How long these take is the bench's row (scripts/bench/captions.ts, `npm run bench`), not a timed test.
    for (const { what, text } of worstCaptionFiles()) {
      expect(text.length, what).toBeLessThanOrEqual(1024 * 1024);
      try {
        const read = parseWebVtt(text);
        expect(read.cues.length, what).toBeGreaterThan(0);
        expect(read.cues.length, what).toBeLessThanOrEqual(20_000);
      } catch (error) {
        expect(error, what).toBeInstanceOf(CaptionError);
        expect((error as Error).message, what).not.toBe("");
      }
    }
  });
});

describe("SRT", () => {
  it("reads a Windows file with a BOM, tags, positioning codes and coordinates, and converts it to WebVTT", () => {
    const cues = parseSrt(srt);
    expect(cues.map((c) => [c.start, c.end])).toEqual([
      [1000, 3500],
      [3600, 6000],
      [5500, 7250],
    ]);
    expect(cues.map((c) => cueText(c.payload))).toEqual(["Hello, and welcome.", "Put your gloves on before you start.", "AT&T & co <3"]);
    expect(srtToWebVtt(srt)).toBe(
      [
        "WEBVTT",
        "",
        "00:00:01.000 --> 00:00:03.500",
        "<i>Hello,</i> and welcome.",
        "",
        "00:00:03.600 --> 00:00:06.000",
        "Put your <b>gloves</b> on",
        "before you start.",
        "",
        "00:00:05.500 --> 00:00:07.250",
        "AT&amp;T &amp; co &lt;3",
        "",
      ].join("\n"),
    );
  });

  it("takes blocks without a counter, extra blank lines, a full stop for the comma, short fields", () => {
    const cues = parseSrt("\n\n00:00:01.000 --> 00:00:02,5\nno counter\n\n\n\n7\n0:00:03,000 --> 0:00:04,000\nshort hours\n");
    expect(cues.map((c) => [c.start, c.end, cueText(c.payload)])).toEqual([
      [1000, 2500, "no counter"],
      [3000, 4000, "short hours"],
    ]);
  });

  it("names the line of a malformed timing", () => {
    const problem = (file: string) => {
      try {
        parseSrt(file);
        return null;
      } catch (e) {
        return [(e as CaptionError).problem, (e as CaptionError).line];
      }
    };
    expect(problem("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:03;000 --> 00:00:04,000\nsemicolon\n")).toEqual(["timestamp", 6]);
    expect(problem("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\nno timing here\n")).toEqual(["timing", 6]);
    expect(problem("1\r\n00:00:05,000 --> 00:00:01,000\r\nbackwards\r\n")).toEqual(["order", 2]);
    // A cue that ends as it starts is its own problem, not one that "ends before it starts".
    expect(problem("1\n00:00:05,000 --> 00:00:05,000\nnever shown\n")).toEqual(["zero_length", 2]);
  });
});

describe("reading bytes and choosing the format", () => {
  it("decodes UTF-8 with a BOM and refuses other encodings and binary, naming the line; NUL is text (WebVTT reads U+FFFD)", () => {
    expect(decodeCaptionBytes(Buffer.from("\uFEFFWEBVTT\n\nø", "utf8"))).toBe("WEBVTT\n\nø");
    const latin1 = Buffer.concat([Buffer.from("1\n00:00:01,000 --> 00:00:02,000\n"), Buffer.from([0x42, 0xe6, 0x72])]);
    expect(() => decodeCaptionBytes(latin1)).toThrow(expect.objectContaining({ problem: "encoding", line: 3 }));
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(() => decodeCaptionBytes(png)).toThrow(expect.objectContaining({ problem: "encoding", line: 1 }));
    // Overlong forms, surrogates and a sequence cut off at the end are not UTF-8 either.
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2);
    expect(firstInvalidUtf8(Buffer.from([0xe2, 0x82]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from("ok ø € 𝄞", "utf8"))).toBe(Buffer.byteLength("ok ø € 𝄞"));
    const nul = parseCaptions(decodeCaptionBytes(Buffer.from("WEBVTT\n\n00:01.000 --> 00:02.000\na\u0000b\n")), "a.vtt");
    expect(nul.cues[0].payload).toBe("a\uFFFDb");
  });

  it("knows WebVTT by its first line (or the name), else reads SRT", () => {
    expect(captionFormat("WEBVTT\n")).toBe("vtt");
    expect(captionFormat("WEBVTT")).toBe("vtt");
    expect(captionFormat("WEBVTT Kind: captions\n")).toBe("vtt");
    expect(captionFormat("1\n00:00:01,000 --> 00:00:02,000\n")).toBe("srt");
    expect(captionFormat("WEBVTTX\n", "a.vtt")).toBe("vtt");
    expect(parseCaptions(srt, "clip.srt").format).toBe("srt");
  });
});

describe("what is written", () => {
  it("keeps known markup and escapes anything else", () => {
    expect(cleanPayload('<script>alert(1)</script> <b onclick="x">b</b> <c.red.big>red</c> <v Ann>hi</v>')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; &lt;b onclick="x"&gt;b</b> <c.red.big>red</c> <v Ann>hi</v>',
    );
    expect(cleanPayload("a --> b  \n  c")).toBe("a --&gt; b\n  c");
    expect(cleanPayload("&amp; &#169; & <lang da>hej</lang>")).toBe("&amp; &#169; &amp; <lang da>hej</lang>");
  });

  it("writes what it reads back the same", () => {
    const { cues } = parseWebVtt(youtube);
    const again = parseWebVtt(toWebVtt(cues));
    expect(again).toEqual({ cues, warnings: [], warningCount: 0 });
    expect(formatVttTime(3_723_004)).toBe("01:02:03.004");
  });

  it("writes the settings we keep from their parsed values, and a file that reads back as the same cues", () => {
    const file = [
      "WEBVTT",
      "",
      "00:00:01.000 --> 00:00:02.000 align:start line:1% vertical:lr size:50% position:25%,line-right region:x",
      "one",
      "",
      "00:00:02.000 --> 00:00:03.000 line:-1,end position:0.0000001% size:100% align:center line:1e2",
      "two   ",
      "   ",
      "lines",
      "",
      "00:00:03.000 --> 00:00:04.000 line:99999999999999999999999 align:middle",
      "<script>alert(1)</script> & <b onclick=x>bold</b> <c.red>red</c>",
    ].join("\n");
    const { cues } = parseWebVtt(file);
    expect(cues.map((c) => c.settings)).toEqual([
      "vertical:lr line:1% position:25%,line-right size:50% align:start",
      "line:-1,end position:0%",
      "",
    ]);
    // A line of spaces is a line of the cue to a browser, but a blank line would end the cue in the file we write.
    expect(cues[1].payload).toBe("two\nlines");
    expect(cues[2].payload).toBe("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b onclick=x&gt;bold</b> <c.red>red</c>");
    expect(parseWebVtt(toWebVtt(cues))).toEqual({ cues, warnings: [], warningCount: 0 });
  });
});

describe("the player's choices", () => {
  const tracks = [{ language: "en" }, { language: "da" }, { language: "nb" }];
  it("shows the learner's choice, else their language's track (nb for no), never when they turned captions off", () => {
    expect(chooseTracks(tracks, { preference: null, language: "da" })).toEqual({ shown: tracks[1], transcript: tracks[1] });
    expect(chooseTracks(tracks, { preference: null, language: "no" }).shown).toBe(tracks[2]);
    expect(chooseTracks(tracks, { preference: "en", language: "da" }).shown).toBe(tracks[0]);
    expect(chooseTracks(tracks, { preference: "off", language: "da" })).toEqual({ shown: undefined, transcript: tracks[1] });
    expect(chooseTracks(tracks, { preference: null, language: "pl" })).toEqual({ shown: undefined, transcript: tracks[0] });
    expect(chooseTracks(tracks, { preference: "da", language: "da", asked: "en" })).toEqual({ shown: tracks[0], transcript: tracks[0] });
    expect(chooseTracks(tracks, { preference: "off", language: "da", asked: "en" })).toEqual({ shown: undefined, transcript: tracks[0] });
  });

  it("marks the cue playing: the latest started that has not ended, none in a gap", () => {
    const cues = [
      { start: 0, end: 3000 },
      { start: 1000, end: 2000 },
      { start: 4000, end: 5000 },
    ];
    expect(activeCue(cues, 500)).toBe(0);
    expect(activeCue(cues, 1500)).toBe(1);
    expect(activeCue(cues, 2500)).toBe(0); // the long first cue still runs
    expect(activeCue(cues, 3500)).toBe(-1);
    expect(activeCue(cues, 4000)).toBe(2);
    expect(activeCue([], 10)).toBe(-1);
  });
});
