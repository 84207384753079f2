import { useEffect } from "react";
import { SKIP_SECONDS, type VideoCommands } from "./use-video-commands";

/** Whether a key goes to a field being typed in. */
function isTyping(target: EventTarget | null) {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)));
}

/**
 * The keys the player answers to (the instructions modal lists the same): space/k, j/l and the arrows, m, f,
 * c, < and >, ?. Anywhere on the page except while typing or with a modal open; space and enter keep their
 * meaning on buttons and links.
 */
export function usePlayerShortcuts({
  commands,
  onHelp,
  hasCaptions,
  toggleCaptions,
  stepRate,
}: {
  commands: VideoCommands;
  onHelp: () => void;
  hasCaptions: boolean;
  toggleCaptions: () => void;
  stepRate: (step: number) => void;
}) {
  useEffect(() => {
    const { toggle, skip, toggleMute, toggleFullscreen } = commands;
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
      else if ((key === "c" || key === "C") && hasCaptions) toggleCaptions();
      else if (key === "<") stepRate(-1);
      else if (key === ">") stepRate(1);
      else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [commands, onHelp, hasCaptions, toggleCaptions, stepRate]);
}
