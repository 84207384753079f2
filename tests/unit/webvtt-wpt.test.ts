import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeCaptionBytes } from "~/utils/captions";
import { parseWebVttFile, type VttCue, type VttRegion } from "~/utils/webvtt";

/**
 * web-platform-tests' WebVTT file-parsing suite (webvtt/parsing/file-parsing) as the judge of our parser
 * (app/utils/webvtt.ts; docs/decisions/036-captions.md): every case whose input we have, each `.vtt` read the
 * way an upload is (bytes, UTF-8 decoding, the parser), and every attribute wpt asserts compared as its
 * `assert_equals` does (Object.is). The inputs and the expected values, with where each came from, are in
 * tests/fixtures/webvtt-wpt/ (README.md there lists the cases whose inputs could not be had).
 */
const dir = path.resolve(__dirname, "../fixtures/webvtt-wpt");

type Expected = Partial<Record<keyof VttCue, unknown>> & { cue: number; region?: Partial<VttRegion> | null; regionGroup?: string | null };
interface Case {
  name: string;
  file: string;
  loads: boolean;
  cues?: number;
  expect?: Expected[];
}

const { cases } = JSON.parse(fs.readFileSync(path.join(dir, "expectations.json"), "utf8")) as { cases: Case[] };

function parse(file: string) {
  return parseWebVttFile(decodeCaptionBytes(fs.readFileSync(path.join(dir, file))));
}

describe("web-platform-tests webvtt/parsing/file-parsing", () => {
  it("has every case's input, and no input without its case", () => {
    const inputs = fs.readdirSync(dir).filter((f) => f.endsWith(".vtt"));
    expect(inputs.sort()).toEqual(cases.map((c) => c.file).sort());
    expect(cases.length).toBe(46);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const parsed = parse(c.file);
    if (!c.loads) {
      // The test expects the track's error event: the signature is wrong, nothing is read.
      expect(parsed).toBeNull();
      return;
    }
    expect(parsed).not.toBeNull();
    const cues = parsed!.cues;
    if (c.cues !== undefined) expect(cues.length).toBe(c.cues);
    const groups = new Map<string, VttRegion>();
    for (const { cue: index, region, regionGroup, ...attributes } of c.expect ?? []) {
      const cue = cues[index];
      for (const [name, value] of Object.entries(attributes)) {
        expect(cue[name as keyof VttCue], `cue ${index} ${name}`).toBe(value);
      }
      if (region === null) expect(cue.region, `cue ${index} region`).toBeNull();
      else if (region) {
        expect(cue.region, `cue ${index} region`).not.toBeNull();
        for (const [name, value] of Object.entries(region))
          expect(cue.region![name as keyof VttRegion], `cue ${index} region ${name}`).toBe(value);
      }
      if (regionGroup === null) expect(cue.region, `cue ${index} region`).toBeNull();
      else if (regionGroup !== undefined) {
        // One group, one region object (wpt compares the objects); different groups, different objects.
        expect(cue.region, `cue ${index} region`).not.toBeNull();
        const seen = groups.get(regionGroup);
        if (seen) expect(cue.region).toBe(seen);
        else {
          for (const other of groups.values()) expect(cue.region).not.toBe(other);
          groups.set(regionGroup, cue.region!);
        }
      }
    }
  });
});
