import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/utils/translate";
import type { ScormPlayerData } from "~/models/scorm.server";

type Item = ScormPlayerData["items"][number];
type SaveState = "idle" | "saving" | "saved" | "error";

/** An attempt as the server shows it (/api/scorm-attempts and the launcher's commit address). */
interface AttemptReply {
  sco_id: string;
  completed: boolean;
  completion_status: string;
  success_status: string;
  score: { scaled: number | null };
  lesson_completed?: boolean;
}

interface Message {
  lectern: "scorm";
  kind: "saving" | "saved" | "failed" | "commit";
  launch: string;
  attempt?: AttemptReply;
  cmi?: Record<string, unknown>;
  terminate?: boolean;
}

function isMessage(data: unknown): data is Message {
  const m = data as Message | null;
  return Boolean(m && typeof m === "object" && m.lectern === "scorm" && typeof m.launch === "string" && typeof m.kind === "string");
}

/** A launch's name, given to its launcher in the address's fragment and carried by each of its messages. */
function launchName() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function withAttempt(item: Item, a: AttemptReply): Item {
  return {
    ...item,
    completed: a.completed,
    completionStatus: a.completion_status,
    successStatus: a.success_status,
    score: a.score.scaled === null ? null : Math.round(a.score.scaled * 100),
  };
}

function statusText(t: (key: string) => string, item: Item) {
  return item.completed ? t("scorm.status.completed") : item.completionStatus ? t("scorm.status.started") : t("scorm.status.notStarted");
}

/**
 * What the launchers say (docs/decisions/020-scorm.md "Commits"). Each launcher stores its SCO's commits
 * itself and tells this page how they went; a message is taken for the launch its name belongs to, from
 * the content origin, whatever frame it came from (a launcher being replaced has no frame any more). A
 * launcher whose address has expired hands its commit over, and this page sends it with the session.
 */
function useLaunchMessages(
  lessonId: number,
  data: ScormPlayerData,
  launches: React.MutableRefObject<Map<string, number>>,
  current: React.MutableRefObject<string>,
  update: (index: number, a: AttemptReply) => void,
  setSave: (s: SaveState) => void,
) {
  useEffect(() => {
    const forward = (index: number, cmi: Record<string, unknown>, terminate: boolean) => {
      setSave("saving");
      const body = JSON.stringify({ lesson_id: lessonId, sco_id: data.items[index]!.identifier, cmi, terminate });
      fetch("/api/scorm-attempts", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "same-origin",
        // keepalive lets the request outlive a closing tab (its body is limited to 64 KiB).
        keepalive: body.length < 60_000,
        body,
      })
        .then(async (response) => {
          const reply = (await response.json()) as { error?: boolean; payload: AttemptReply };
          if (!response.ok || reply.error) throw new Error(String(response.status));
          update(index, reply.payload);
          setSave("saved");
        })
        .catch(() => setSave("error"));
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== data.contentOrigin || !isMessage(event.data)) return;
      const m = event.data;
      const index = launches.current.get(m.launch);
      if (index === undefined) return;
      // A launch left behind may still report a stored commit; only the open one's saving is shown.
      const open = m.launch === current.current;
      if (m.kind === "saved" && m.attempt) update(index, m.attempt);
      if (open && m.kind === "saving") setSave("saving");
      if (open && m.kind === "failed") setSave("error");
      if (open && m.kind === "saved") setSave("saved");
      if (m.kind === "commit" && m.cmi) forward(index, m.cmi, Boolean(m.terminate));
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [lessonId, data, launches, current, update, setSave]);
}

/**
 * A SCORM lesson in the player (docs/decisions/020-scorm.md). The content runs in a frame from the
 * organization's content origin, where the launcher hosts the SCORM API and stores the SCO's commits. The
 * contents list is the package's own (chapter headings, hidden items and assets left out); picking another
 * item replaces the frame, and the SCO being left still stores its last commit as it goes. Without
 * JavaScript it says that the content needs it.
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
  const [enhanced, setEnhanced] = useState(false);
  const [items, setItems] = useState<Item[]>(data.items);
  const listed = data.items.map((item, index) => ({ item, index })).filter(({ item }) => item.listed);
  const first = listed.find(({ item }) => !item.completed) ?? listed[0];
  const [launch, setLaunch] = useState({ index: first?.index ?? 0, name: "" });
  const [save, setSave] = useState<SaveState>("idle");
  const launches = useRef(new Map<string, number>());
  const currentLaunch = useRef("");
  const completedRef = useRef(onLessonCompleted);
  completedRef.current = onLessonCompleted;
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const open = (index: number) => {
    const name = launchName();
    launches.current.set(name, index);
    currentLaunch.current = name;
    setSave("idle");
    setLaunch({ index, name });
  };
  useEffect(() => {
    setEnhanced(true);
    open(launch.index);
    // Only once: later launches come from the contents list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => setItems(data.items), [data.items]);

  const updateRef = useRef((index: number, a: AttemptReply) => {
    const before = itemsRef.current;
    const after = before.map((item, i) => (i === index ? withAttempt(item, a) : item));
    itemsRef.current = after;
    setItems(after);
    const done = (list: Item[]) => list.every((item) => !item.required || item.completed);
    if (a.lesson_completed || (!done(before) && done(after))) completedRef.current?.();
  });
  useLaunchMessages(lessonId, data, launches, currentLaunch, updateRef.current, setSave);

  // The SCO being left stores its last commit as its frame goes; its statuses are read back a moment later.
  const refresh = () =>
    fetch(`/api/scorm-attempts?lesson_id=${lessonId}`, { credentials: "same-origin" })
      .then((response) => (response.ok ? (response.json() as Promise<{ payload: AttemptReply[] }>) : null))
      .then((reply) => {
        for (const a of reply?.payload ?? []) {
          const index = itemsRef.current.findIndex((item) => item.identifier === a.sco_id);
          const known = itemsRef.current[index];
          if (known && (known.completed !== a.completed || known.completionStatus !== a.completion_status)) updateRef.current(index, a);
        }
      })
      .catch(() => undefined);
  const choose = (index: number) => {
    if (index === launch.index) return;
    open(index);
    for (const delay of [1_500, 5_000]) window.setTimeout(() => void refresh(), delay);
  };

  if (!data.version || items.length === 0) {
    return (
      <p className="scorm-notice" data-testid="scorm-missing">
        {t("scorm.player.noPackage")}
      </p>
    );
  }
  const item = items[launch.index] ?? items[0]!;
  const several = listed.length > 1;
  return (
    <div className={`scorm-player${several ? " with-toc" : ""}`} data-testid="scorm-player">
      {several ? <ScormContents data={data} items={items} current={launch.index} enabled={enhanced} onChoose={choose} /> : null}
      <div className="scorm-stage">
        <div className="scorm-bar">
          <span className="scorm-title">{item.title}</span>
          <span className={`scorm-status ${item.completed ? "done" : ""}`} data-testid="scorm-status">
            {statusText(t, item)}
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
        {enhanced && launch.name ? (
          <iframe
            key={launch.name}
            src={`${item.url}#lectern=${launch.name}`}
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

/** The package's contents list: chapter headings and the items a learner may pick, each with its status. */
function ScormContents({
  data,
  items,
  current,
  enabled,
  onChoose,
}: {
  data: ScormPlayerData;
  items: Item[];
  current: number;
  enabled: boolean;
  onChoose: (index: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav className="scorm-toc" aria-label={t("scorm.player.contents")}>
      <h2>{t("scorm.player.contents")}</h2>
      <ol data-testid="scorm-contents">
        {data.contents.map((entry, position) => {
          const indent = { paddingInlineStart: `${entry.depth * 0.9}rem` };
          if (entry.kind === "heading")
            return (
              <li key={`chapter-${position}`} className="scorm-chapter" style={indent}>
                <h3 data-testid="scorm-chapter">{entry.title}</h3>
              </li>
            );
          const item = items[entry.index]!;
          return (
            <li key={item.identifier} style={indent} className={entry.index === current ? "current" : undefined}>
              <button
                type="button"
                onClick={() => onChoose(entry.index)}
                aria-current={entry.index === current ? "true" : undefined}
                disabled={!enabled}
                data-testid="scorm-item"
              >
                <span className={`scorm-dot ${item.completed ? "done" : item.completionStatus ? "started" : ""}`} aria-hidden="true" />
                <span>{item.title}</span>
                <span className="visually-hidden">{statusText(t, item)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
