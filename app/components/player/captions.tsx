import { Form, useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { LessonPageData } from "~/screens/lesson-page.server";
import { clock } from "~/utils/duration";
import { PLAYBACK_RATES } from "~/utils/playback";
import { useTranslation } from "~/utils/translate";

export { PLAYBACK_RATES };

/** A video lesson's captions as the page gives them (app/screens/lesson-page.server.ts). */
export type PlayerCaptions = NonNullable<LessonPageData["captions"]>;

/** Keeps the learner's choice on the server, for every device (PUT /api/player-preferences); visitors keep none. */
function remember(change: { captions?: string; playback_rate?: number }) {
  void fetch("/api/player-preferences", {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(change),
  }).catch(() => undefined);
}

/**
 * The captions and the speed of the player's video (docs/decisions/036-captions.md). The tracks are `<track>`
 * elements; the one shown is the transcript's language while captions are on (C or the captions button turn
 * them on and off), from the first play on; the speed is one of PLAYBACK_RATES (< and > step through them).
 * Both are remembered.
 */
export function useCaptions(ref: React.RefObject<HTMLVideoElement>, lessonId: number, captions: PlayerCaptions | null | undefined) {
  // The tracks' addresses as first given for the lesson: a revalidation signs them again (an hour apart at most).
  const kept = useRef({ lessonId, key: "", tracks: captions?.tracks ?? [] });
  const key = (captions?.tracks ?? []).map((t) => `${t.id}:${t.language}`).join(",");
  if (kept.current.lessonId !== lessonId || kept.current.key !== key) kept.current = { lessonId, key, tracks: captions?.tracks ?? [] };
  const tracks = kept.current.tracks;
  const language = captions?.transcript?.language ?? null;
  const remembered = Boolean(captions?.remembered);
  const [on, setOn] = useState(Boolean(captions?.shown));
  const [rate, setRateState] = useState<number>(captions?.rate ?? 1);
  // Chromium draws a cue first at the top of the video and then moves it down: a layout shift, which counts
  // unless the learner has just acted. So the captions are drawn from the first play on, or from the
  // learner's own switch; until then the track is loaded but hidden (docs/decisions/036-captions.md).
  const [started, setStarted] = useState(false);
  const state = useRef({ on, rate, language, remembered });
  state.current = { on, rate, language, remembered };

  useEffect(() => {
    const video = ref.current;
    if (!video?.textTracks) return;
    const list = video.textTracks;
    const apply = () => {
      for (const track of Array.from(list)) {
        // Shown from the first play on (or the learner's own switch), hidden (loaded, not drawn) until then.
        track.mode = on && track.language === language ? (started ? "showing" : "hidden") : "disabled";
      }
    };
    const play = () => setStarted(true);
    apply();
    list.addEventListener("addtrack", apply);
    video.addEventListener("play", play);
    return () => {
      list.removeEventListener("addtrack", apply);
      video.removeEventListener("play", play);
    };
  }, [ref, on, language, key, started]);

  // Another language chosen (the transcript's menu) while captions are on: that is the choice now.
  const shownLanguage = useRef(language);
  useEffect(() => {
    if (shownLanguage.current === language) return;
    shownLanguage.current = language;
    if (state.current.on && language && state.current.remembered) remember({ captions: language });
  }, [language]);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    const apply = () => {
      video.defaultPlaybackRate = rate;
      video.playbackRate = rate;
    };
    apply();
    video.addEventListener("loadedmetadata", apply);
    return () => video.removeEventListener("loadedmetadata", apply);
  }, [ref, rate]);

  const toggle = useCallback(() => {
    const { on: was, language: shown, remembered: keep } = state.current;
    if (!shown) return;
    setOn(!was);
    setStarted(true);
    if (keep) remember({ captions: was ? "off" : shown });
  }, []);
  const setRate = useCallback((next: number) => {
    if (!(PLAYBACK_RATES as readonly number[]).includes(next)) return;
    setRateState(next);
    if (state.current.remembered) remember({ playback_rate: next });
  }, []);
  const stepRate = useCallback(
    (step: number) => {
      const index = PLAYBACK_RATES.indexOf(state.current.rate as (typeof PLAYBACK_RATES)[number]);
      const next = PLAYBACK_RATES[Math.min(PLAYBACK_RATES.length - 1, Math.max(0, (index < 0 ? 1 : index) + step))];
      if (next !== state.current.rate) setRate(next);
    },
    [setRate],
  );
  return { tracks, on, toggle, rate, setRate, stepRate };
}

/** The cue playing at `ms`: the last one started by then that has not ended (overlapping cues: the latest). */
export function activeCue(cues: readonly { start: number; end: number }[], ms: number) {
  let lo = 0;
  let hi = cues.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cues[mid].start <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = found; i >= 0 && i > found - 8; i--) if (cues[i].end > ms) return i;
  return -1;
}

/**
 * The transcript beside the player: the cues of the transcript's track as text, each a link to its moment
 * (`?t=`), rendered by the server, so it reads and works without JavaScript. With it, the cue playing is
 * marked and kept in view (unless the pointer is over the list), and a click seeks the video instead.
 * Another language is a GET form (`?transcript=`), sent on change.
 */
export function Transcript({
  captions,
  videoRef,
  path,
}: {
  captions: PlayerCaptions;
  videoRef: React.RefObject<HTMLVideoElement>;
  path: string;
}) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const transcript = captions.transcript;
  const cues = useMemo(() => transcript?.cues ?? [], [transcript]);
  const [active, setActive] = useState(-1);
  const list = useRef<HTMLOListElement>(null);
  const hovered = useRef(false);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const update = () => setActive(activeCue(cues, video.currentTime * 1000));
    update();
    video.addEventListener("timeupdate", update);
    video.addEventListener("seeked", update);
    return () => {
      video.removeEventListener("timeupdate", update);
      video.removeEventListener("seeked", update);
    };
  }, [videoRef, cues]);

  useEffect(() => {
    const box = list.current;
    const item = box?.children[active] as HTMLElement | undefined;
    if (!box || !item || hovered.current || box.clientHeight === 0) return;
    const above = item.offsetTop < box.scrollTop;
    const below = item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight;
    if (!above && !below) return;
    const smooth = !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    box.scrollTo({ top: Math.max(0, item.offsetTop - box.clientHeight / 3), behavior: smooth ? "smooth" : "auto" });
  }, [active]);

  if (!transcript) return null;
  const seek = (event: React.MouseEvent, ms: number) => {
    const video = videoRef.current;
    if (!video || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    video.currentTime = ms / 1000;
  };
  const open = captions.transcriptAsked || undefined;
  return (
    <section className="player-transcript" aria-labelledby="transcript-title" data-testid="transcript">
      <details open={open}>
        <summary>
          <h2 id="transcript-title">{t("captions.transcript.title")}</h2>
        </summary>
        {captions.tracks.length > 1 ? (
          <Form method="get" action={path} className="transcript-language" preventScrollReset replace>
            <label htmlFor="transcript-language">{t("captions.transcript.language")}</label>
            <select
              id="transcript-language"
              name="transcript"
              defaultValue={transcript.language}
              key={transcript.language}
              onChange={(e) => submit(e.currentTarget.form, { replace: true, preventScrollReset: true })}
              data-testid="transcript-language"
            >
              {captions.tracks.map((track) => (
                <option key={track.id} value={track.language} lang={track.language}>
                  {track.label}
                </option>
              ))}
            </select>
            <noscript>
              <button type="submit">{t("captions.transcript.show")}</button>
            </noscript>
          </Form>
        ) : null}
        <ol
          className="transcript-cues"
          ref={list}
          lang={transcript.language}
          onPointerEnter={() => (hovered.current = true)}
          onPointerLeave={() => (hovered.current = false)}
        >
          {cues.map((cue, i) => {
            const seconds = Math.floor(cue.start / 1000);
            return (
              <li key={`${cue.start}-${i}`}>
                <a
                  href={`${path}?t=${seconds}&transcript=${encodeURIComponent(transcript.language)}`}
                  onClick={(e) => seek(e, cue.start)}
                  aria-current={i === active ? "true" : undefined}
                  data-start={cue.start}
                >
                  <span className="cue-time">{clock(seconds)}</span> <span className="cue-text">{cue.text}</span>
                </a>
              </li>
            );
          })}
        </ol>
      </details>
    </section>
  );
}
