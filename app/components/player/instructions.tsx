import { Link, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/utils/translate";

const SHORTCUTS = [
  { keys: ["Space", "K"], text: "player.instructions.playPause" },
  { keys: ["J", "←"], text: "player.instructions.back" },
  { keys: ["L", "→"], text: "player.instructions.forward" },
  { keys: ["M"], text: "player.instructions.mute" },
  { keys: ["F"], text: "player.instructions.fullscreen" },
  // Issue 35 (docs/decisions/036-captions.md).
  { keys: ["C"], text: "captions.instructions.captions" },
  { keys: ["<", ">"], text: "captions.instructions.speed" },
  { keys: ["?"], text: "player.instructions.help" },
] as const;

/**
 * The player's instructions modal (docs/product.md §2). The first time a person opens a video it is shown and its
 * button records that (POST /api/player-window, docs/product.md §7, a form: it works without JavaScript; with it, the
 * form is sent by `fetch` and the modal closes, since /api is no Remix route a fetcher could post to, and the page's data is revalidated); after that
 * it opens with "?" or the shortcuts button, or `?instructions=1` without JavaScript, and closes with the
 * close button or Escape.
 */
export function Instructions({ firstTime, returnTo, onClose }: { firstTime: boolean; returnTo: string; onClose?: () => void }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  const revalidator = useRevalidator();
  const closeRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && onClose) {
        event.preventDefault();
        onClose();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [onClose]);
  if (firstTime && sent) return null;
  return (
    <div className="modal player-modal" role="dialog" aria-modal="true" aria-labelledby="instructions-title" data-testid="instructions">
      <div className="modal-body">
        <h2 id="instructions-title">{t("player.instructions.title")}</h2>
        <p>{t("player.instructions.intro")}</p>
        <dl className="shortcuts">
          {SHORTCUTS.map((s) => (
            <div key={s.text}>
              <dt>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? <span className="or"> {t("player.instructions.or")} </span> : null}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{t(s.text)}</dd>
            </div>
          ))}
        </dl>
        <p className="hint-text">{t("player.instructions.complete")}</p>
        <div className="modal-actions">
          {firstTime ? (
            <form
              method="post"
              action="/api/player-window"
              onSubmit={(event) => {
                event.preventDefault();
                setSent(true);
                // Then the page's data learns that the instructions were shown (as a fetcher's post would revalidate it).
                void fetch("/api/player-window", { method: "POST", headers: { Accept: "application/json" } })
                  .catch(() => undefined)
                  .finally(() => revalidator.revalidate());
              }}
            >
              <input type="hidden" name="redirectTo" value={returnTo} />
              <button type="submit" className="primary" ref={closeRef as React.RefObject<HTMLButtonElement>} data-testid="instructions-ok">
                {t("player.instructions.gotIt")}
              </button>
            </form>
          ) : (
            <Link
              to={returnTo}
              className="button primary"
              ref={closeRef as React.RefObject<HTMLAnchorElement>}
              preventScrollReset
              onClick={(event) => {
                if (onClose) {
                  event.preventDefault();
                  onClose();
                }
              }}
              data-testid="instructions-close"
            >
              {t("player.instructions.close")}
            </Link>
          )}
        </div>
      </div>
    </div>
  );
}
