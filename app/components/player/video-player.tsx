import { lazy, memo, startTransition, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/utils/translate";
import { Icon } from "./icons";
import { useCaptions, type PlayerCaptions } from "./captions";
import { useProgressHeartbeat } from "./use-progress-heartbeat";
import { useVideoState } from "./use-video-state";
import { useVideoCommands } from "./use-video-commands";
import { usePlayerShortcuts } from "./use-player-shortcuts";
import { VideoControls } from "./video-controls";

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

/** True from hydration on (a transition: see ServicePlayer above); the server's render and the first one say false. */
function useEnhanced() {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => startTransition(() => setEnhanced(true)), []);
  return enhanced;
}

/**
 * The video's address is signed afresh by every revalidation (a form sent, a heartbeat): the first one of
 * a lesson is kept, so the element does not reload and drop the place mid-watch.
 */
function useKeptSource(lessonId: number, src: string) {
  const source = useRef({ lessonId, src });
  if (source.current.lessonId !== lessonId) source.current = { lessonId, src };
  return source.current.src;
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
  const captionControls = useCaptions(ref, lessonId, captions);
  const enhanced = useEnhanced();
  useProgressHeartbeat(ref, lessonId);
  const state = useVideoState(ref, box, { lessonId, startAt, knownDuration });
  const commands = useVideoCommands(ref, box);
  const { tracks, toggle: toggleCaptions, stepRate } = captionControls;
  usePlayerShortcuts({ commands, onHelp, hasCaptions: tracks.length > 0, toggleCaptions, stepRate });
  const source = useKeptSource(lessonId, src);

  return (
    <div className={enhanced ? "video enhanced" : "video"} data-testid="video" ref={box} data-playing={state.playing || undefined}>
      {/* A video file is a plain <video controls>, so it plays without JavaScript; a service's address needs
          its player's script (the link below leads to it then). */}
      {/* A click on the picture plays or pauses, as in any player; the keyboard has the play button and Space. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
      <div className="video-frame" onClick={enhanced ? commands.toggle : undefined}>
        {isVideoFile(source) ? (
          // eslint-disable-next-line jsx-a11y/media-has-caption -- its caption tracks are the lesson's own (none until an admin adds them)
          <video
            ref={ref}
            src={source}
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
          <ServicePlayer ref={ref} src={source} controls={!enhanced} preload="metadata" width="100%" height="100%" />
        )}
        {enhanced && !state.playing ? (
          <span className="video-big-play" aria-hidden="true">
            <Icon name="play" />
          </span>
        ) : null}
      </div>
      <noscript>
        <a href={src}>{t("learn.videoElsewhere")}</a>
      </noscript>
      {enhanced ? <VideoControls state={state} commands={commands} captions={captionControls} onHelp={onHelp} /> : null}
    </div>
  );
}
