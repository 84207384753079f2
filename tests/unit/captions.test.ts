import { describe, expect, it } from "vitest";
import {
  CaptionError,
  captionFormat,
  cleanPayload,
  cueText,
  decodeCaptionBytes,
  formatVttTime,
  parseCaptions,
  parseSrt,
  parseWebVtt,
  srtToWebVtt,
  toWebVtt,
} from "~/utils/captions";
import { chooseTracks } from "~/models/captions.server";
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

describe("WebVTT", () => {
  it("reads a real-world file: header, settings, inline timestamps and classes, overlapping cues", () => {
    const cues = parseWebVtt(youtube);
    expect(cues).toHaveLength(2);
    expect(cues[0]).toMatchObject({ start: 30, end: 2510, settings: "align:start position:0%" });
    expect(cueText(cues[0].payload)).toBe("welcome to the");
    expect(cueText(cues[1].payload)).toBe("welcome to the safety briefing");
  });

  it("takes a BOM, CRLF and CR line ends, identifiers, NOTE, STYLE and REGION blocks, hours left out", () => {
    const file =
      "\uFEFFWEBVTT - Safety\r\n\r\nSTYLE\r\n::cue { color: yellow }\r\n\r\nREGION\rid:fred width:40%\r\r" +
      "NOTE written by hand\r\nover two lines\r\n\r\nintro\r\n00:01.000 --> 00:04.000 line:-2 bogus:1 align:center\r\n" +
      "<v Mia Hansen>Good morning!</v>\r\n<v.loud Jonas>Hi <i>all</i></v>\r\n\r\n" +
      "01:00:00.000 --> 01:00:01.500\r\n&lt;beep&gt; &amp; done&nbsp;now\r\n";
    const cues = parseWebVtt(file);
    expect(cues.map((c) => [c.start, c.end, c.settings])).toEqual([
      [1000, 4000, "line:-2 align:center"],
      [3_600_000, 3_601_500, ""],
    ]);
    expect(cues[0].payload).toBe("<v Mia Hansen>Good morning!</v>\n<v.loud Jonas>Hi <i>all</i></v>");
    expect(cueText(cues[0].payload)).toBe("Good morning! Hi all");
    expect(cueText(cues[1].payload)).toBe("<beep> & done now");
  });

  it("keeps overlapping cues and puts cues in order of their start", () => {
    const cues = parseWebVtt(
      "WEBVTT\n\n00:00:05.000 --> 00:00:08.000\nsecond\n\n00:00:01.000 --> 00:00:09.000\nfirst, long\n\n00:00:05.000 --> 00:00:06.000\nthird\n",
    );
    expect(cues.map((c) => cueText(c.payload))).toEqual(["first, long", "second", "third"]);
  });

  it("names the line of a malformed timestamp, a missing timing line, a missing blank line, a cue that ends first", () => {
    const at = (file: string) => {
      try {
        parseWebVtt(file);
      } catch (error) {
        expect(error).toBeInstanceOf(CaptionError);
        const e = error as CaptionError;
        return [e.problem, e.line, e.text];
      }
      throw new Error("no error");
    };
    expect(at("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nok\n\n00:00:03,000 --> 00:00:04.000\ncomma\n")).toEqual([
      "timestamp",
      6,
      "00:00:03,000 --> 00:00:04.000",
    ]);
    expect(at("WEBVTT\n\n00:00:01.5 --> 00:00:02.000\nshort millis\n")).toEqual(["timestamp", 3, "00:00:01.5 --> 00:00:02.000"]);
    expect(at("WEBVTT\n\n00:61:01.000 --> 00:62:02.000\nminutes\n")[0]).toBe("timestamp");
    expect(at("WEBVTT\n\n00:00:01.000 -> 00:00:02.000\narrow\n")).toEqual(["timing", 3, "00:00:01.000 -> 00:00:02.000"]);
    expect(at("WEBVTT\n\nid\njust text\n")).toEqual(["timing", 4, "just text"]);
    expect(at("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\none\n00:00:02.000 --> 00:00:03.000\ntwo\n")).toEqual([
      "timing",
      5,
      "00:00:02.000 --> 00:00:03.000",
    ]);
    expect(at("WEBVTT\n\n00:00:04.000 --> 00:00:02.000\nbackwards\n")).toEqual(["order", 3, "00:00:04.000 --> 00:00:02.000"]);
    expect(at("WEBVT\n\n00:00:01.000 --> 00:00:02.000\nx\n")).toEqual(["header", 1, "WEBVT"]);
    expect(at("WEBVTT\n00:00:01.000 --> 00:00:02.000\nx\n")).toEqual(["header", 2, "00:00:01.000 --> 00:00:02.000"]);
    expect(at("WEBVTT\n\nNOTE only a note\n")).toEqual(["no_cues", 0, ""]);
    expect(at(" \n\n")).toEqual(["empty", 0, ""]);
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
  });
});

describe("reading bytes and choosing the format", () => {
  it("decodes UTF-8 with a BOM and refuses other encodings and binary, naming the line", () => {
    expect(decodeCaptionBytes(Buffer.from("\uFEFFWEBVTT\n\nø", "utf8"))).toBe("WEBVTT\n\nø");
    const latin1 = Buffer.concat([Buffer.from("1\n00:00:01,000 --> 00:00:02,000\n"), Buffer.from([0x42, 0xe6, 0x72])]);
    expect(() => decodeCaptionBytes(latin1)).toThrow(expect.objectContaining({ problem: "encoding", line: 3 }));
    expect(() => decodeCaptionBytes(Buffer.from("WEBVTT\n\n\u0000\u0001"))).toThrow(
      expect.objectContaining({ problem: "encoding", line: 3 }),
    );
  });

  it("knows WebVTT by its first line (or the name), else reads SRT", () => {
    expect(captionFormat("\uFEFFWEBVTT\n")).toBe("vtt");
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
    const cues = parseWebVtt(youtube);
    const again = parseWebVtt(toWebVtt(cues));
    expect(again).toEqual(cues);
    expect(formatVttTime(3_723_004)).toBe("01:02:03.004");
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
