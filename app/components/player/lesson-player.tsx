import { Form, Link, useRevalidator } from "@remix-run/react";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "~/utils/translate";
import { AccessMessage } from "~/components/access-message";
import { QuizPlayer } from "~/components/quiz/quiz-player";
import { ScormPlayer } from "~/components/scorm/scorm-player";
import type { LessonPageData } from "~/screens/lesson-page.server";
import { clock } from "~/utils/duration";
import { EpisodeList } from "./episode-list";
import { Icon } from "./icons";
import { Instructions } from "./instructions";
import { VideoPlayer } from "./video-player";
import { Transcript } from "./captions";

/**
 * The player page: the stage (video, image, SCORM, quiz or the text), the lesson's title, actions and
 * text under it, and the episodes beside it (below it on narrow screens).
 */
export function LessonPlayer({ data }: { data: LessonPageData }) {
  const { t } = useTranslation();
  const { lesson, course } = data;
  const revalidator = useRevalidator();
  const [help, setHelp] = useState(data.instructionsAsked);
  const openHelp = useCallback(() => setHelp(true), []);
  const closeHelp = useCallback(() => setHelp(false), []);
  const videoRef = useRef<HTMLVideoElement>(null);
  const video = !data.access && lesson.kind === "video" ? (data.media?.url ?? lesson.videoUrl) : null;
  const stage =
    !data.access && (video || (lesson.kind === "image" && data.media) || data.scorm || data.quiz) ? (
      <div className={`player-stage stage-${lesson.kind}`}>
        {video ? (
          <VideoPlayer
            lessonId={lesson.id}
            src={video}
            title={lesson.title}
            startAt={lesson.positionSeconds}
            poster={lesson.poster}
            knownDuration={lesson.durationSeconds}
            onHelp={openHelp}
            captions={data.captions}
            videoRef={videoRef}
          />
        ) : null}
        {lesson.kind === "image" && data.media ? <img src={data.media.url} alt={lesson.title} className="lesson-image" /> : null}
        {data.scorm ? <ScormPlayer lessonId={lesson.id} data={data.scorm} onLessonCompleted={() => revalidator.revalidate()} /> : null}
        {data.quiz ? (
          <QuizPlayer
            data={data.quiz}
            returnTo={`/courses/${course.id}/lessons/${lesson.id}`}
            lessonId={lesson.id}
            confirm={data.quizConfirm}
            error={data.quizError}
          />
        ) : null}
      </div>
    ) : null;
  const episodesAside = (
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
          <header className="lesson-head">
            <p className="lesson-kicker">
              <span>{t("player.lessonOf", { number: lesson.number, total: data.episodes.length })}</span>
              <span>{t(`courses.kinds.${lesson.kind}`)}</span>
              {lesson.durationSeconds ? <span>{clock(lesson.durationSeconds)}</span> : null}
            </p>
            <h1>{lesson.title}</h1>
          </header>
          {stage}
          {data.access ? (
            <AccessMessage reason={data.access} loginUrl={data.loginUrl} />
          ) : (
            <>
              <div className="lesson-actions">
                {lesson.completed ? (
                  <p className="lesson-done" data-testid="lesson-completed">
                    <Icon name="check" /> {t("learn.lessonCompleted")}
                  </p>
                ) : lesson.kind === "scorm" || lesson.kind === "quiz" ? null : (
                  <Form method="post">
                    <button type="submit" name="intent" value="complete" className="primary complete-button" data-testid="complete">
                      <Icon name="check" /> {t("learn.markComplete")}
                    </button>
                  </Form>
                )}
                <nav className="lesson-nav" aria-label={t("learn.episodes")}>
                  {data.previousId ? (
                    <Link to={`/courses/${course.id}/lessons/${data.previousId}`} className="button" rel="prev">
                      <Icon name="arrowLeft" /> {t("learn.previous")}
                    </Link>
                  ) : null}
                  {data.nextId ? (
                    <Link to={`/courses/${course.id}/lessons/${data.nextId}`} className="button" rel="next">
                      {t("learn.next")} <Icon name="arrowRight" />
                    </Link>
                  ) : null}
                </nav>
              </div>
              {lesson.body ? (
                <div
                  className={lesson.kind === "text" ? "rich-text lesson-body reading" : "rich-text lesson-body"}
                  dangerouslySetInnerHTML={{ __html: lesson.body }}
                />
              ) : null}
            </>
          )}
        </article>
        {video && data.captions?.transcript ? (
          // The transcript above the episodes, the two kept in view together (app/styles/player.css).
          <div className="player-column">
            <Transcript captions={data.captions} videoRef={videoRef} path={data.path} />
            {episodesAside}
          </div>
        ) : (
          episodesAside
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
