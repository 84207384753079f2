import { useTranslation } from "~/utils/translate";
import { clock } from "~/utils/duration";
import { rateText } from "~/utils/playback";
import { Icon } from "./icons";
import { PLAYBACK_RATES, type useCaptions } from "./captions";
import { SKIP_SECONDS, type VideoCommands } from "./use-video-commands";
import type { VideoState } from "./use-video-state";

type CaptionControls = Pick<ReturnType<typeof useCaptions>, "tracks" | "on" | "toggle" | "rate" | "setRate">;

/**
 * The player's own controls, drawn once JavaScript runs (without it the browser's own): play, ±15 s, the
 * time and the progress, mute and volume, captions, speed, the shortcuts' help and full screen.
 */
export function VideoControls({
  state,
  commands,
  captions,
  onHelp,
}: {
  state: VideoState;
  commands: VideoCommands;
  captions: CaptionControls;
  onHelp: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="video-controls" role="group" aria-label={t("player.controls.label")} data-testid="video-controls">
      <PlayAndSkip playing={state.playing} commands={commands} />
      <SeekBar time={state.time} duration={state.duration} seekTo={commands.seekTo} />
      <VolumeControls muted={state.muted} volume={state.volume} commands={commands} />
      <CaptionsAndSpeed captions={captions} />
      <button type="button" className="vc-button" onClick={onHelp} aria-label={t("player.controls.help")} data-testid="vc-help">
        <Icon name="help" />
      </button>
      <button
        type="button"
        className="vc-button"
        onClick={commands.toggleFullscreen}
        aria-label={state.fullscreen ? t("player.controls.exitFullscreen") : t("player.controls.fullscreen")}
        data-testid="vc-fullscreen"
      >
        <Icon name="fullscreen" />
      </button>
    </div>
  );
}

function PlayAndSkip({ playing, commands }: { playing: boolean; commands: VideoCommands }) {
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        className="vc-button vc-play"
        onClick={commands.toggle}
        aria-label={playing ? t("player.controls.pause") : t("player.controls.play")}
        data-testid="vc-play"
      >
        <Icon name={playing ? "pause" : "play"} />
      </button>
      <button
        type="button"
        className="vc-button"
        onClick={() => commands.skip(-SKIP_SECONDS)}
        aria-label={t("player.controls.back")}
        data-testid="vc-back"
      >
        <Icon name="back" />
        <span className="vc-skip">15</span>
      </button>
      <button
        type="button"
        className="vc-button"
        onClick={() => commands.skip(SKIP_SECONDS)}
        aria-label={t("player.controls.forward")}
        data-testid="vc-forward"
      >
        <Icon name="forward" />
        <span className="vc-skip">15</span>
      </button>
    </>
  );
}

/** The time as text, and the progress as a slider that seeks. */
function SeekBar({ time, duration, seekTo }: { time: number; duration: number; seekTo: (seconds: number) => void }) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}

function VolumeControls({ muted, volume, commands }: { muted: boolean; volume: number; commands: VideoCommands }) {
  const { t } = useTranslation();
  const level = muted ? 0 : volume;
  return (
    <>
      <button
        type="button"
        className="vc-button"
        onClick={commands.toggleMute}
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
        value={level}
        onChange={(e) => commands.setLevel(Number(e.target.value))}
        aria-label={t("player.controls.volume")}
        aria-valuetext={`${Math.round(level * 100)}%`}
        data-testid="vc-volume"
        style={{ "--fill": `${level * 100}%` } as React.CSSProperties}
      />
    </>
  );
}

/** The captions switch (when the lesson has tracks) and the speed menu. */
function CaptionsAndSpeed({ captions }: { captions: CaptionControls }) {
  const { t } = useTranslation();
  return (
    <>
      {captions.tracks.length ? (
        <button
          type="button"
          className="vc-button vc-captions"
          onClick={captions.toggle}
          aria-label={t("captions.controls.captions")}
          aria-pressed={captions.on}
          data-testid="vc-captions"
        >
          <Icon name="captions" />
        </button>
      ) : null}
      <select
        className="vc-speed"
        value={String(captions.rate)}
        onChange={(e) => captions.setRate(Number(e.target.value))}
        aria-label={t("captions.controls.speed")}
        data-testid="vc-speed"
      >
        {PLAYBACK_RATES.map((r) => (
          <option key={r} value={String(r)}>
            {rateText(r, t("captions.controls.decimal"))}
          </option>
        ))}
      </select>
    </>
  );
}
