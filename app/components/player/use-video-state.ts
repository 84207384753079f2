import { useEffect, useRef, useState, type RefObject } from "react";

/** What the player's controls show, as the video element reports it. */
export interface VideoState {
  playing: boolean;
  time: number;
  duration: number;
  volume: number;
  muted: boolean;
  fullscreen: boolean;
}

/**
 * The controls' state follows the element, and the place is resumed once the length is known: where the
 * learner stopped (`startAt`), or the furthest place known should the element reload (a new source).
 */
export function useVideoState(
  ref: RefObject<HTMLVideoElement>,
  box: RefObject<HTMLDivElement>,
  { lessonId, startAt, knownDuration }: { lessonId: number; startAt: number; knownDuration: number | null },
): VideoState {
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(knownDuration ?? 0);
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  // The furthest known place of this lesson, should the element reload all the same.
  // `pending`: the element has yet to be put at the place (once per lesson, and again after a reload).
  const place = useRef({ lessonId, seconds: startAt, pending: true });
  if (place.current.lessonId !== lessonId) place.current = { lessonId, seconds: startAt, pending: true };

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
  }, [startAt, lessonId, ref, box]);

  return { playing, time, duration, volume, muted, fullscreen };
}
