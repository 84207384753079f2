import { Link } from "@remix-run/react";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "~/utils/translate";
import { AccessMessage } from "~/components/access-message";
import type { LessonPageData } from "~/screens/lesson-page.server";
import { clock } from "~/utils/duration";
import { EpisodeList } from "./episode-list";
import { Icon } from "./icons";
import { Instructions } from "./instructions";
import { Transcript } from "./captions";
import { LessonActions } from "./lesson-actions";
import { PlayerStage } from "./player-stage";

/**
 * The player page: the stage (video, image, SCORM, quiz or the text), the lesson's title, actions and
 * text under it, and the episodes beside it (below it on narrow screens).
 */
export function LessonPlayer({ data }: { data: LessonPageData }) {
  const { t } = useTranslation();
  const { lesson, course } = data;
  const [help, setHelp] = useState(data.instructionsAsked);
  const openHelp = useCallback(() => setHelp(true), []);
  const closeHelp = useCallback(() => setHelp(false), []);
  const videoRef = useRef<HTMLVideoElement>(null);
  const video = !data.access && lesson.kind === "video" ? (data.media?.url ?? lesson.videoUrl) : null;
  return (
    <div className="player-page">
      <nav className="player-top" aria-label={t("player.courseLink", { title: course.title })}>
        <Link to={`/courses/${course.id}`} className="player-back">
          <Icon name="arrowLeft" /> <span>{course.title}</span>
        </Link>
        {video ? (
          <a
            href={`${data.path}?instructions=1`}
            className="player-help-link"
            onClick={(e) => (e.preventDefault(), openHelp())}
            data-testid="open-instructions"
          >
            <Icon name="help" /> {t("player.controls.help")}
          </a>
        ) : null}
      </nav>
      <div className="player-layout">
        <article className="player-main">
          {/* The title comes first in the document (headings in order: the quiz's and SCORM's own headings
              are h2s inside the stage); the stage is drawn above it (app/styles/player.css, `order`). */}
          <LessonHead data={data} />
          <PlayerStage data={data} video={video} videoRef={videoRef} onHelp={openHelp} />
          {data.access ? <AccessMessage reason={data.access} loginUrl={data.loginUrl} /> : <LessonActions data={data} />}
        </article>
        {video && data.captions?.transcript ? (
          // The transcript above the episodes, the two kept in view together (app/styles/player.css).
          <div className="player-column">
            <Transcript captions={data.captions} videoRef={videoRef} path={data.path} />
            <EpisodesAside data={data} />
          </div>
        ) : (
          <EpisodesAside data={data} />
        )}
      </div>
      {data.showInstructions ? (
        <Instructions firstTime returnTo={data.path} />
      ) : help ? (
        <Instructions firstTime={false} returnTo={data.path} onClose={closeHelp} />
      ) : null}
    </div>
  );
}

/** The lesson's number, kind and length, and its title. */
function LessonHead({ data }: { data: LessonPageData }) {
  const { t } = useTranslation();
  const { lesson } = data;
  return (
    <header className="lesson-head">
      <p className="lesson-kicker">
        <span>{t("player.lessonOf", { number: lesson.number, total: data.episodes.length })}</span>
        <span>{t(`courses.kinds.${lesson.kind}`)}</span>
        {lesson.durationSeconds ? <span>{clock(lesson.durationSeconds)}</span> : null}
      </p>
      <h1>{lesson.title}</h1>
    </header>
  );
}

/** The course's episodes beside the player, with the learner's progress through the course. */
function EpisodesAside({ data }: { data: LessonPageData }) {
  const { t } = useTranslation();
  const { lesson, course } = data;
  return (
    <aside className="player-side" aria-labelledby="player-episodes">
      <div className="player-side-head">
        <h2 id="player-episodes">{t("learn.episodes")}</h2>
        {course.progress ? (
          <p className="player-side-progress">
            {t("player.courseProgress", { done: course.progress.done, total: course.progress.total })}
            <span className="meter" role="presentation">
              <span style={{ width: `${course.progress.percent}%` }} />
            </span>
          </p>
        ) : null}
      </div>
      <EpisodeList
        courseId={course.id}
        episodes={data.episodes}
        open={!data.access || data.access === "previous_lessons"}
        currentId={lesson.id}
        compact
      />
    </aside>
  );
}
