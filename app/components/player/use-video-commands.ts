import { useMemo, type RefObject } from "react";

/** docs/product.md §9: the skip arrows move 15 seconds. */
export const SKIP_SECONDS = 15;

/** What the controls and the keyboard shortcuts do to the video element (and its box, for full screen). */
export interface VideoCommands {
  toggle: () => void;
  skip: (seconds: number) => void;
  seekTo: (seconds: number) => void;
  toggleMute: () => void;
  setLevel: (volume: number) => void;
  toggleFullscreen: () => void;
}

/** The commands, made once per element: the keyboard's listener is not added again at every render. */
export function useVideoCommands(ref: RefObject<HTMLVideoElement>, box: RefObject<HTMLDivElement>): VideoCommands {
  return useMemo(
    () => ({
      toggle() {
        const video = ref.current;
        if (!video) return;
        if (video.paused) void video.play()?.catch(() => undefined);
        else video.pause();
      },
      skip(seconds: number) {
        const video = ref.current;
        if (!video) return;
        const end = Number.isFinite(video.duration) ? video.duration : Infinity;
        video.currentTime = Math.min(end, Math.max(0, video.currentTime + seconds));
      },
      seekTo(seconds: number) {
        if (ref.current) ref.current.currentTime = seconds;
      },
      toggleMute() {
        if (ref.current) ref.current.muted = !ref.current.muted;
      },
      setLevel(volume: number) {
        if (!ref.current) return;
        ref.current.volume = volume;
        ref.current.muted = volume === 0;
      },
      toggleFullscreen() {
        if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
        else void box.current?.requestFullscreen?.().catch(() => undefined);
      },
    }),
    [ref, box],
  );
}
