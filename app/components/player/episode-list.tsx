import { useTranslation } from "~/utils/translate";
import { ListLink } from "~/components/list-link";
import { ProviderImage } from "~/components/provider-image";
import type { EpisodeState } from "~/models/player.server";
import { clock } from "~/utils/duration";
import { Icon, kindIcon } from "./icons";

export interface EpisodeItem {
  id: number;
  title: string;
  kind: string;
  durationSeconds: number | null;
  /** The image provider's address of a picture of the episode (cover bucket), when it has one. */
  thumbnail: string | null;
  state: EpisodeState;
  /** 0–100; null for a lesson under way whose share cannot be measured (SCORM, a quiz, a text). */
  percent: number | null;
  locked: boolean;
}

/**
 * The episodes of a course as a streaming site lists them: number, picture, title, kind, length and the
 * learner's state (completed, in progress — with a bar when its share is known —, or not started: the one
 * lesson state of app/models/lesson-state.server.ts). Used on the course page and beside the
 * player (`compact`, with the current episode marked).
 */
export function EpisodeList({
  courseId,
  episodes,
  open,
  currentId,
  compact = false,
}: {
  courseId: number;
  episodes: EpisodeItem[];
  /** May the viewer open the course at all (otherwise the titles are not links). */
  open: boolean;
  currentId?: number;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ol className={compact ? "episodes episode-list compact" : "episodes episode-list"} data-testid="episodes">
      {episodes.map((e, index) => {
        const current = e.id === currentId;
        const linked = open && !e.locked && !current;
        const body = (
          <>
            <span className="episode-thumb" aria-hidden="true">
              {e.thumbnail ? (
                <ProviderImage
                  src={e.thumbnail}
                  bucket="cover"
                  width={compact ? 160 : 240}
                  sizes={compact ? "160px" : "(max-width: 600px) 40vw, 240px"}
                />
              ) : (
                <span className={`episode-art kind-${e.kind}`}>
                  <Icon name={kindIcon(e.kind)} />
                </span>
              )}
              <span className="episode-number">{index + 1}</span>
              {e.state === "in_progress" && e.percent !== null ? (
                <span className="episode-bar">
                  <span style={{ width: `${e.percent}%` }} />
                </span>
              ) : null}
            </span>
            <span className="episode-text">
              <span className="episode-title">{e.title}</span>
              <span className="episode-meta">
                <span>{t(`courses.kinds.${e.kind}`)}</span>
                {e.durationSeconds ? <span>{clock(e.durationSeconds)}</span> : null}
                {current ? <span className="episode-now">{t("player.nowPlaying")}</span> : null}
              </span>
            </span>
            <span className={`episode-state state-${e.locked && open ? "locked" : e.state}`}>
              {e.locked && open ? (
                <>
                  <Icon name="lock" />
                  <span className="episode-state-text">{t("learn.locked")}</span>
                </>
              ) : e.state === "completed" ? (
                <>
                  <Icon name="check" />
                  <span className="episode-state-text">{t("player.state.done")}</span>
                </>
              ) : e.state === "in_progress" ? (
                <span className="episode-state-text">
                  {e.percent !== null ? t("player.watchedPercent", { percent: e.percent }) : t("player.state.started")}
                </span>
              ) : (
                <span className="episode-state-text visually-hidden">{t("player.state.new")}</span>
              )}
            </span>
          </>
        );
        return (
          <li
            key={e.id}
            className={e.state}
            data-state={e.state}
            data-locked={e.locked || undefined}
            data-lesson={e.title}
            aria-current={current ? "true" : undefined}
          >
            {linked ? (
              <ListLink to={`/courses/${courseId}/lessons/${e.id}`} className="episode">
                {body}
              </ListLink>
            ) : (
              <div className="episode">{body}</div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
