import { lazy, memo, startTransition, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/utils/translate";
import { clock } from "~/utils/duration";
import { Icon } from "./icons";
import { PLAYBACK_RATES, useCaptions, type PlayerCaptions } from "./captions";
import { rateText } from "~/utils/playback";

/**
 * Video services' addresses (YouTube, Vimeo, …) play through react-player, whose code is fetched only for
 * such a lesson (a lazily loaded component): a video file, the usual lesson, is a plain `<video>`, and the
 * player page's JavaScript carries none of it (docs/decisions/034-lighthouse.md).
 *
 * react-player draws inside a Suspense boundary, which hydrates only once its code has arrived. A render
 * that reaches the boundary before then makes React give up on hydrating it and draw it again on the
 * client (React error 421; seen on a busy machine). So the player is drawn again only when its own props
 * change, and the one change after hydration (`enhanced`) is a transition, which waits for the boundary.
 */
const ServicePlayer = memo(lazy(() => import("react-player")));

/** A video file the browser plays itself: one of ours, or an address ending in a video file's extension. */
export function isVideoFile(src: string) {
  return /^\/files\//.test(src) || /\.(mp4|m4v|webm|ogv|ogg|mov)(?:[?#]|$)/i.test(src);
}

/** docs/product.md §9: the skip arrows move 15 seconds. */
export const SKIP_SECONDS = 15;

/** Keys the player answers to (the instructions modal lists the same). */
function isTyping(target: EventTarget | null) {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)));
}

/**
 * The video of a lesson. Without JavaScript it is a plain `<video controls>` (react-player renders one on
 * the server). With it: the player's own controls (play, ±15 s, progress, time, mute, volume, captions, speed,
 * full screen, shortcuts), keyboard shortcuts (space/k, j/l and arrows, m, f, c, < and >, ?), the place resumed where the learner
 * stopped, and a heartbeat every 15 seconds while playing (POST /api/lesson-progresses) that saves the place
 * and the time watched.
 */
export function VideoPlayer({
  lessonId,
  src,
  title,
  startAt,
  knownDuration,
  poster,
  onHelp,
  captions,
  videoRef,
}: {
  lessonId: number;
  src: string;
  title: string;
  startAt: number;
  /** The lesson's length as saved, shown until the element knows its own. */
  knownDuration: number | null;
  /** A picture shown until the video plays (the course's cover). */
  poster?: string | null;
  onHelp: () => void;
  /** The lesson's caption tracks and the learner's settings (app/screens/lesson-page.server.ts); null for no captions. */
  captions?: PlayerCaptions | null;
  /** The element, for the transcript beside the player. */
  videoRef?: React.RefObject<HTMLVideoElement>;
}) {
  const { t } = useTranslation();
  const ownRef = useRef<HTMLVideoElement>(null);
  const ref = videoRef ?? ownRef;
  const box = useRef<HTMLDivElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(knownDuration ?? 0);
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const { tracks, on: captionsOn, toggle: toggleCaptions, rate, setRate, stepRate } = useCaptions(ref, lessonId, captions);
  // The video's address is signed afresh by every revalidation (a form sent, a heartbeat): keep the first
  // one of a lesson, so the element does not reload and drop the place mid-watch.
  const source = useRef({ lessonId, src });
  if (source.current.lessonId !== lessonId) source.current = { lessonId, src };
  // The furthest known place of this lesson, should the element reload all the same.
  // `pending`: the element has yet to be put at the place (once per lesson, and again after a reload).
  const place = useRef({ lessonId, seconds: startAt, pending: true });
  if (place.current.lessonId !== lessonId) place.current = { lessonId, seconds: startAt, pending: true };

  // Heartbeats: the place and the seconds really watched since the last one (the server caps the credit).
  useEffect(() => {
    startTransition(() => setEnhanced(true));
    const video = ref.current;
    if (!video) return;
    let watched = 0;
    let last = video.currentTime;
    const tick = () => {
      const delta = video.currentTime - last;
      if (delta > 0 && delta < 5) watched += delta;
      last = video.currentTime;
    };
    const send = () => {
      if (watched < 1 && video.paused) return;
      void fetch("/api/lesson-progresses", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({
          lesson_id: lessonId,
          position_seconds: Math.floor(video.currentTime),
          watched_seconds: Math.floor(watched),
        }),
      });
      watched = 0;
    };
    video.addEventListener("timeupdate", tick);
    const timer = window.setInterval(send, 15_000);
    video.addEventListener("pause", send);
    return () => {
      video.removeEventListener("timeupdate", tick);
      video.removeEventListener("pause", send);
      window.clearInterval(timer);
    };
  }, [lessonId, ref]);

  // The controls' state follows the element; the place is resumed once the length is known.
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    const sync = () => {
      if (!place.current.pending && video.currentTime > 0) place.current.seconds = video.currentTime;
      setPlaying(!video.paused);
      setTime(video.currentTime);
      if (Number.isFinite(video.duration) && video.duration > 0) setDuration(video.duration);
      setVolume(video.volume);
      setMuted(video.muted);
    };
    // Once, when the element can seek: not at the very end (then it starts over), nor after the learner moved.
    const resume = () => {
      if (!place.current.pending || video.readyState < 1) return;
      place.current.pending = false;
      const end = Number.isFinite(video.duration) ? video.duration : Infinity;
      const target = Math.max(startAt, place.current.seconds);
      if (target > 0 && video.currentTime < 1 && target < end - 1) video.currentTime = target;
      sync();
    };
    // A reloaded element (a new source) starts at 0: resume it again at the place it had.
    const reloaded = () => {
      place.current.pending = true;
    };
    const events = ["play", "pause", "timeupdate", "durationchange", "volumechange", "ended"] as const;
    for (const e of events) video.addEventListener(e, sync);
    video.addEventListener("emptied", reloaded);
    video.addEventListener("loadedmetadata", resume);
    video.addEventListener("canplay", resume);
    resume();
    const onFullscreen = () => setFullscreen(document.fullscreenElement === box.current);
    document.addEventListener("fullscreenchange", onFullscreen);
    return () => {
      for (const e of events) video.removeEventListener(e, sync);
      video.removeEventListener("emptied", reloaded);
      video.removeEventListener("loadedmetadata", resume);
      video.removeEventListener("canplay", resume);
      document.removeEventListener("fullscreenchange", onFullscreen);
    };
  }, [startAt, lessonId, ref]);

  const toggle = useCallback(() => {
    const video = ref.current;
    if (!video) return;
    if (video.paused) void video.play()?.catch(() => undefined);
    else video.pause();
  }, [ref]);
  const skip = useCallback(
    (seconds: number) => {
      const video = ref.current;
      if (!video) return;
      const end = Number.isFinite(video.duration) ? video.duration : Infinity;
      video.currentTime = Math.min(end, Math.max(0, video.currentTime + seconds));
    },
    [ref],
  );
  const toggleMute = useCallback(() => {
    if (ref.current) ref.current.muted = !ref.current.muted;
  }, [ref]);
  const toggleFullscreen = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
    else void box.current?.requestFullscreen?.().catch(() => undefined);
  }, []);

  // Keyboard shortcuts, anywhere on the page except while typing (and space/enter keep their meaning on buttons and links).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const onControl = (event.target as HTMLElement | null)?.closest?.("button, a, [role=button]");
      const key = event.key;
      if ((key === " " && !onControl) || key === "k" || key === "K") toggle();
      else if (key === "j" || key === "J" || key === "ArrowLeft") skip(-SKIP_SECONDS);
      else if (key === "l" || key === "L" || key === "ArrowRight") skip(SKIP_SECONDS);
      else if (key === "m" || key === "M") toggleMute();
      else if (key === "f" || key === "F") toggleFullscreen();
      else if (key === "?") onHelp();
      else if ((key === "c" || key === "C") && tracks.length) toggleCaptions();
      else if (key === "<") stepRate(-1);
      else if (key === ">") stepRate(1);
      else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [toggle, skip, toggleMute, toggleFullscreen, onHelp, tracks.length, toggleCaptions, stepRate]);

  const seekTo = (value: number) => {
    if (ref.current) ref.current.currentTime = value;
  };
  const setLevel = (value: number) => {
    if (!ref.current) return;
    ref.current.volume = value;
    ref.current.muted = value === 0;
  };

  return (
    <div className={enhanced ? "video enhanced" : "video"} data-testid="video" ref={box} data-playing={playing || undefined}>
      {/* A video file is a plain <video controls>, so it plays without JavaScript; a service's address needs
          its player's script (the link below leads to it then). */}
      {/* A click on the picture plays or pauses, as in any player; the keyboard has the play button and Space. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
      <div className="video-frame" onClick={enhanced ? toggle : undefined}>
        {isVideoFile(source.current.src) ? (
          // eslint-disable-next-line jsx-a11y/media-has-caption -- its caption tracks are the lesson's own (none until an admin adds them)
          <video
            ref={ref}
            src={source.current.src}
            controls={!enhanced}
            preload="metadata"
            poster={poster ?? undefined}
            aria-label={title}
            style={{ display: "block", width: "100%", height: "100%" }}
          >
            {tracks.map((track) => (
              <track
                key={track.id}
                kind="captions"
                src={track.url}
                srcLang={track.language}
                label={track.label}
                default={track.language === captions?.shown}
              />
            ))}
          </video>
        ) : (
          <ServicePlayer ref={ref} src={source.current.src} controls={!enhanced} preload="metadata" width="100%" height="100%" />
        )}
        {enhanced && !playing ? (
          <span className="video-big-play" aria-hidden="true">
            <Icon name="play" />
          </span>
        ) : null}
      </div>
      <noscript>
        <a href={src}>{t("learn.videoElsewhere")}</a>
      </noscript>
      {enhanced ? (
        <div className="video-controls" role="group" aria-label={t("player.controls.label")} data-testid="video-controls">
          <button
            type="button"
            className="vc-button vc-play"
            onClick={toggle}
            aria-label={playing ? t("player.controls.pause") : t("player.controls.play")}
            data-testid="vc-play"
          >
            <Icon name={playing ? "pause" : "play"} />
          </button>
          <button
            type="button"
            className="vc-button"
            onClick={() => skip(-SKIP_SECONDS)}
            aria-label={t("player.controls.back")}
            data-testid="vc-back"
          >
            <Icon name="back" />
            <span className="vc-skip">15</span>
          </button>
          <button
            type="button"
            className="vc-button"
            onClick={() => skip(SKIP_SECONDS)}
            aria-label={t("player.controls.forward")}
            data-testid="vc-forward"
          >
            <Icon name="forward" />
            <span className="vc-skip">15</span>
          </button>
          <span className="vc-time" data-testid="vc-time">
            {clock(time)} / {clock(duration)}
          </span>
          <input
            type="range"
            className="vc-seek"
            min={0}
            max={duration || 0}
            step={0.1}
            value={Math.min(time, duration || 0)}
            onChange={(e) => seekTo(Number(e.target.value))}
            aria-label={t("player.controls.seek")}
            aria-valuetext={t("player.controls.time", { current: clock(time), total: clock(duration) })}
            data-testid="vc-seek"
            style={{ "--fill": `${duration ? (100 * time) / duration : 0}%` } as React.CSSProperties}
          />
          <button
            type="button"
            className="vc-button"
            onClick={toggleMute}
            aria-label={muted ? t("player.controls.unmute") : t("player.controls.mute")}
            aria-pressed={muted}
            data-testid="vc-mute"
          >
            <Icon name={muted || volume === 0 ? "muted" : "volume"} />
          </button>
          <input
            type="range"
            className="vc-volume"
            min={0}
            max={1}
            step={0.05}
            value={muted ? 0 : volume}
            onChange={(e) => setLevel(Number(e.target.value))}
            aria-label={t("player.controls.volume")}
            aria-valuetext={`${Math.round((muted ? 0 : volume) * 100)}%`}
            data-testid="vc-volume"
            style={{ "--fill": `${(muted ? 0 : volume) * 100}%` } as React.CSSProperties}
          />
          {tracks.length ? (
            <button
              type="button"
              className="vc-button vc-captions"
              onClick={toggleCaptions}
              aria-label={t("captions.controls.captions")}
              aria-pressed={captionsOn}
              data-testid="vc-captions"
            >
              <Icon name="captions" />
            </button>
          ) : null}
          <select
            className="vc-speed"
            value={String(rate)}
            onChange={(e) => setRate(Number(e.target.value))}
            aria-label={t("captions.controls.speed")}
            data-testid="vc-speed"
          >
            {PLAYBACK_RATES.map((r) => (
              <option key={r} value={String(r)}>
                {rateText(r, t("captions.controls.decimal"))}
              </option>
            ))}
          </select>
          <button type="button" className="vc-button" onClick={onHelp} aria-label={t("player.controls.help")} data-testid="vc-help">
            <Icon name="help" />
          </button>
          <button
            type="button"
            className="vc-button"
            onClick={toggleFullscreen}
            aria-label={fullscreen ? t("player.controls.exitFullscreen") : t("player.controls.fullscreen")}
            data-testid="vc-fullscreen"
          >
            <Icon name="fullscreen" />
          </button>
        </div>
      ) : null}
    </div>
  );
}
