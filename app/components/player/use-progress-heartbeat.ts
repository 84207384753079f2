import { useEffect, type RefObject } from "react";

/** How often a playing video reports its place and the time watched. */
const HEARTBEAT_MS = 15_000;

/**
 * Heartbeats: every 15 seconds while playing, and on pause, the place and the seconds really watched since
 * the last one (POST /api/lesson-progresses; the server caps the credit). Jumps (a seek) count for nothing.
 */
export function useProgressHeartbeat(ref: RefObject<HTMLVideoElement>, lessonId: number) {
  useEffect(() => {
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
    const timer = window.setInterval(send, HEARTBEAT_MS);
    video.addEventListener("pause", send);
    return () => {
      video.removeEventListener("timeupdate", tick);
      video.removeEventListener("pause", send);
      window.clearInterval(timer);
    };
  }, [lessonId, ref]);
}
