import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { AccessMessage } from "~/components/access-message";
import { StateBadge } from "~/components/assignment-state";
import { ProviderImage } from "~/components/provider-image";
import type { CoursePageData } from "~/screens/course-page.server";
import { humanDuration } from "~/utils/duration";
import { Icon } from "./icons";

/** The course page's hero: cover, kind, title, facts, progress, and the big play/continue button. */
export function CourseHero({ data }: { data: CoursePageData }) {
  const { t } = useTranslation();
  const { course, progress, next } = data;
  // Begun: a lesson completed or under way, whatever its kind (app/models/lesson-state.server.ts).
  const begun = Boolean(progress && (progress.done > 0 || progress.inProgress > 0));
  const facts = [
    data.episodes.length && (course.type === "series" || course.type === "movie")
      ? t(data.episodes.length === 1 ? "player.episodesOne" : "player.episodesMany", { count: data.episodes.length })
      : null,
    data.duration ? humanDuration(t, data.duration) : null,
    data.rating.average ? `★ ${data.rating.average}` : null,
  ].filter(Boolean);
  return (
    <header className={course.cover ? "course-hero with-cover" : "course-hero"} data-testid="course-hero">
      {course.cover ? (
        <div className="course-hero-media">
          <ProviderImage src={course.cover} bucket="cover" width={1280} sizes="100vw" priority />
        </div>
      ) : null}
      <div className="course-hero-content">
        <p className="course-hero-kicker">
          <span className="course-kind">{t(`courseType.${course.type}`)}</span>
          {facts.map((fact) => (
            <span key={fact as string} className="course-fact">
              {fact}
            </span>
          ))}
        </p>
        <h1>{course.title}</h1>
        {course.summary ? <p className="course-hero-summary">{course.summary}</p> : null}
        {data.assignment ? (
          <p className={`assignment-notice assignment-${data.assignment.state.replace("_", "-")}`} data-testid="assignment-notice">
            <span>
              {data.assignment.done
                ? t("assigning.learner.noticeDone", { date: data.assignment.due, done: data.assignment.done })
                : t("assigning.learner.notice", { date: data.assignment.due })}
            </span>{" "}
            <StateBadge state={data.assignment.state} />
          </p>
        ) : null}
        {data.paths.map((path) => (
          <p key={path.id} className="course-path-note" data-testid="course-path">
            {t("paths.onCourse", { step: path.step, steps: path.steps })} <Link to={`/paths/${path.id}`}>{path.title}</Link>
          </p>
        ))}
        {progress && begun ? (
          <div className="course-hero-progress" data-testid="course-progress">
            <span className="progress-text">
              <span>
                {progress.completed
                  ? t("learn.courseCompleted")
                  : t("player.courseProgress", { done: progress.done, total: progress.total })}
              </span>
              <span className="progress-line">{t("learn.progress", { percent: progress.percent })}</span>
            </span>
            <span className="meter" role="presentation">
              <span style={{ width: `${progress.percent}%` }} />
            </span>
          </div>
        ) : null}
        <div className="course-actions">
          {data.access ? (
            <AccessMessage reason={data.access} loginUrl={data.loginUrl} />
          ) : course.type === "download" && course.download ? (
            <a href={course.download} className="button primary hero-play" data-testid="download">
              <Icon name="download" /> {t("learn.download")}
            </a>
          ) : course.type === "external_link" && course.externalUrl ? (
            <a
              href={course.externalUrl}
              className="button primary hero-play"
              rel="noopener noreferrer"
              target="_blank"
              data-testid="external"
            >
              <Icon name="link" /> {t("learn.openLink")}
            </a>
          ) : next ? (
            <Link to={`/courses/${course.id}/lessons/${next.id}`} className="button primary hero-play" data-testid="start">
              <Icon name="play" />
              <span className="hero-play-text">
                <span>{progress?.completed ? t("player.playAgain") : begun ? t("learn.continue") : t("learn.start")}</span>
                <small>{`${t("player.episodeNumber", { number: next.number })} · ${next.title}`}</small>
              </span>
            </Link>
          ) : null}
          {data.signedIn ? (
            <Form method="post" className="inline-form">
              <button
                type="submit"
                name="intent"
                value={data.bookmarked ? "unbookmark" : "bookmark"}
                aria-pressed={data.bookmarked}
                className="hero-secondary"
                data-testid="bookmark"
              >
                <Icon name={data.bookmarked ? "bookmark" : "bookmarkOff"} /> {data.bookmarked ? t("learn.bookmarked") : t("learn.bookmark")}
              </button>
            </Form>
          ) : null}
        </div>
      </div>
    </header>
  );
}
