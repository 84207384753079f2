import { readCaptionFile } from "../../app/models/captions.server";

/**
 * Caption uploads of the worst content that fits in the 1 MiB limit (issue 44, item 6): how long the whole read
 * takes (decode, the W3C WebVTT parse, keeping and checking each cue). The parse is linear; the row holds it to a
 * second for the slowest kind, beside the cost of only splitting the same text into lines (the floor).
 */
const MAX = 1024 * 1024;

/** `head`, then `unit` as many times as fit in 1 MiB with `tail`. */
function fill(head: string, unit: string, tail = "") {
  return head + unit.repeat(Math.floor((MAX - head.length - tail.length) / unit.length)) + tail;
}

/** The kinds of file that make the reader work hardest, each just under the limit. */
export function worstCaptionFiles(): Array<{ what: string; text: string }> {
  return [
    // blocks that start a cue and fail at once, each line read twice (the spec steps back over it)
    { what: "failing blocks", text: fill("WEBVTT\n\n", "x\n-->\n") },
    // one timing line of settings, split and looked at one by one
    { what: "a 1 MiB settings line", text: fill("WEBVTT\n\n00:00.000 --> 00:01.000 ", "line:1%,x ", "\nx\n") },
    // a timestamp of a million digits, and a million REGION settings
    { what: "a 1 MiB timestamp", text: fill("WEBVTT\n\n", "0", ":00.000 --> 00:01.000\nx\n") },
    { what: "a 1 MiB REGION", text: fill("WEBVTT\n\nREGION\n", "id:a ", "\n\n00:00.000 --> 00:01.000 region:a\nx\n") },
    // cues as small as they come (more than the 20,000 a file may hold are refused, after reading)
    { what: "the smallest cues", text: fill("WEBVTT\n\n", "00:00.000 --> 00:01.000\nx\n\n") },
    // cues full of markup: every tag is checked and escaped
    { what: "cues full of tags", text: fill("WEBVTT\n\n", "00:00.000 --> 00:01.000\n<b><i>a</i></b><c.x>b</c><v Ann>c</v>\n\n") },
  ];
}

function ms(run: () => unknown, times = 3) {
  const taken: number[] = [];
  for (let i = 0; i < times; i++) {
    const began = process.hrtime.bigint();
    try {
      run();
    } catch {
      // a refused file (too many cues) is read all the same: its time counts
    }
    taken.push(Number(process.hrtime.bigint() - began) / 1e6);
  }
  return taken.sort((a, b) => a - b)[Math.floor(times / 2)];
}

export function benchCaptions() {
  const kinds = worstCaptionFiles().map(({ what, text }) => {
    const bytes = new TextEncoder().encode(text);
    return {
      what,
      readMs: Math.round(ms(() => readCaptionFile(bytes, "worst.vtt")) * 10) / 10,
      floorMs: Math.round(ms(() => new TextDecoder().decode(bytes).split(/\r\n|\r|\n/)) * 100) / 100,
    };
  });
  const slowest = kinds.reduce((a, b) => (b.readMs > a.readMs ? b : a));
  return { kinds, slowest, targetMs: 1000, ok: slowest.readMs <= 1000 };
}
