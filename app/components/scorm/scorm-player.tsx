import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/utils/translate";
import type { ScormPlayerData } from "~/models/scorm.server";

type Item = ScormPlayerData["items"][number];
type SaveState = "idle" | "saving" | "saved" | "error";

interface Message {
  lectern: "scorm";
  kind: "state" | "commit" | "initialized";
  sco: string;
  cmi: Record<string, unknown> | null;
  terminate: boolean;
}

function isMessage(data: unknown): data is Message {
  const m = data as Message | null;
  return Boolean(m && typeof m === "object" && m.lectern === "scorm" && typeof m.sco === "string" && typeof m.kind === "string");
}

/**
 * A SCORM lesson in the player (docs/decisions/020-scorm.md). The content runs in a frame from the
 * organization's content origin, where scorm-again hosts the SCORM API; it posts its commits here, and
 * this page (which holds the learner's session) sends them to POST /api/scorm-attempts. Changes that were
 * never committed are sent two seconds after the last one (and every 20 seconds), and when the page is
 * hidden or closed, so a closed tab keeps its place. Without JavaScript it says that the content needs it.
 */
export function ScormPlayer({
  lessonId,
  data,
  onLessonCompleted,
}: {
  lessonId: number;
  data: ScormPlayerData;
  onLessonCompleted?: () => void;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLIFrameElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [items, setItems] = useState<Item[]>(data.items);
  const firstOpen = Math.max(
    0,
    data.items.findIndex((i) => !i.completed),
  );
  const [current, setCurrent] = useState(firstOpen);
  const [save, setSave] = useState<SaveState>("idle");
  const completedRef = useRef(onLessonCompleted);
  completedRef.current = onLessonCompleted;

  useEffect(() => setEnhanced(true), []);
  useEffect(() => setItems(data.items), [data.items]);

  useEffect(() => {
    let pending: { sco: string; cmi: Record<string, unknown> } | null = null;
    let soon: number | undefined;
    const send = (sco: string, cmi: Record<string, unknown>, terminate: boolean, leaving = false) => {
      const body = JSON.stringify({ lesson_id: lessonId, sco_id: sco, cmi, terminate });
      setSave("saving");
      return fetch("/api/scorm-attempts", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "same-origin",
        // keepalive lets the request outlive a closing tab (its body is limited to 64 KiB).
        keepalive: leaving && body.length < 60_000,
        body,
      })
        .then(async (response) => {
          const reply = (await response.json()) as {
            error?: boolean;
            payload: {
              sco_id: string;
              completed: boolean;
              completion_status: string;
              success_status: string;
              score: { scaled: number | null };
              lesson_completed?: boolean;
            };
          };
          if (!response.ok || reply.error) throw new Error(String(response.status));
          const a = reply.payload;
          setItems((list) =>
            list.map((i) =>
              i.identifier === a.sco_id
                ? {
                    ...i,
                    completed: a.completed,
                    completionStatus: a.completion_status,
                    successStatus: a.success_status,
                    score: a.score.scaled === null ? null : Math.round(a.score.scaled * 100),
                  }
                : i,
            ),
          );
          setSave("saved");
          if (a.lesson_completed) completedRef.current?.();
        })
        .catch(() => setSave("error"));
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== data.contentOrigin || !frame.current || event.source !== frame.current.contentWindow) return;
      if (!isMessage(event.data)) return;
      const m = event.data;
      if (m.kind === "state" && m.cmi) {
        // Changes the content did not commit yet are saved two seconds after the last one.
        pending = { sco: m.sco, cmi: m.cmi };
        window.clearTimeout(soon);
        soon = window.setTimeout(() => flush(false), 2_000);
      }
      if (m.kind === "commit" && m.cmi) {
        pending = null;
        void send(m.sco, m.cmi, m.terminate);
      }
    };
    const flush = (leaving: boolean) => {
      window.clearTimeout(soon);
      if (!pending) return;
      const p = pending;
      pending = null;
      void send(p.sco, p.cmi, false, leaving);
    };
    const onHide = () => flush(true);
    const onVisibility = () => {
      if (document.visibilityState === "hidden") flush(true);
    };
    window.addEventListener("message", onMessage);
    window.addEventListener("pagehide", onHide);
    document.addEventListener("visibilitychange", onVisibility);
    const timer = window.setInterval(() => flush(false), 20_000);
    return () => {
      flush(true);
      window.removeEventListener("message", onMessage);
      window.removeEventListener("pagehide", onHide);
      document.removeEventListener("visibilitychange", onVisibility);
      window.clearInterval(timer);
      window.clearTimeout(soon);
    };
  }, [lessonId, data.contentOrigin]);

  if (!data.version || items.length === 0) {
    return (
      <p className="scorm-notice" data-testid="scorm-missing">
        {t("scorm.player.noPackage")}
      </p>
    );
  }
  const item = items[current] ?? items[0];
  const several = items.length > 1;
  return (
    <div className={`scorm-player${several ? " with-toc" : ""}`} data-testid="scorm-player">
      {several ? (
        <nav className="scorm-toc" aria-label={t("scorm.player.contents")}>
          <h2>{t("scorm.player.contents")}</h2>
          <ol>
            {items.map((i, index) => (
              <li
                key={i.identifier}
                style={{ paddingInlineStart: `${i.depth * 0.9}rem` }}
                className={index === current ? "current" : undefined}
              >
                <button
                  type="button"
                  onClick={() => setCurrent(index)}
                  aria-current={index === current ? "true" : undefined}
                  disabled={!enhanced}
                  data-testid="scorm-item"
                >
                  <span className={`scorm-dot ${i.completed ? "done" : i.completionStatus ? "started" : ""}`} aria-hidden="true" />
                  <span>{i.title}</span>
                  <span className="visually-hidden">
                    {i.completed
                      ? t("scorm.status.completed")
                      : i.completionStatus
                        ? t("scorm.status.started")
                        : t("scorm.status.notStarted")}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <div className="scorm-stage">
        <div className="scorm-bar">
          <span className="scorm-title">{item.title}</span>
          <span className={`scorm-status ${item.completed ? "done" : ""}`} data-testid="scorm-status">
            {item.completed
              ? t("scorm.status.completed")
              : item.completionStatus
                ? t("scorm.status.started")
                : t("scorm.status.notStarted")}
            {item.successStatus === "passed" || item.successStatus === "failed" ? ` · ${t(`scorm.status.${item.successStatus}`)}` : ""}
            {item.score !== null ? ` · ${t("scorm.status.score", { score: item.score })}` : ""}
          </span>
          <span className="scorm-save" role="status" aria-live="polite" data-testid="scorm-save">
            {save === "saving"
              ? t("scorm.player.saving")
              : save === "saved"
                ? t("scorm.player.saved")
                : save === "error"
                  ? t("scorm.player.saveFailed")
                  : ""}
          </span>
        </div>
        {enhanced ? (
          <iframe
            key={item.url}
            ref={frame}
            src={item.url}
            title={item.title}
            className="scorm-frame"
            // Another origin already keeps the content away from the app; the sandbox also keeps it from
            // navigating the player away or opening windows without a click.
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads"
            allow="fullscreen; autoplay"
            referrerPolicy="no-referrer"
            data-testid="scorm-frame"
          />
        ) : (
          <p className="scorm-notice" data-testid="scorm-needs-js">
            {t("scorm.player.needsJavaScript")}
          </p>
        )}
      </div>
    </div>
  );
}
