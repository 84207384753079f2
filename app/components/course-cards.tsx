import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "~/utils/translate";
import { useKeptElement } from "~/utils/kept-markup.server";
import { ListLink } from "~/components/list-link";
import { ProviderImage } from "~/components/provider-image";
import { durationLabel } from "~/utils/duration";

export interface CourseCard {
  id: number;
  title: string;
  type: string;
  description?: string;
  /** The image provider's address of the cover (platform.imageUrl), when the course has one. */
  cover?: string | null;
  /** Episodes (lessons) and their total running time, when the page counted them. */
  episodes?: number;
  durationSeconds?: number;
  /** 0–100 for a learner who started the course. */
  progress?: number | null;
  /** A line of the page's own under the title (e.g. "Added 21. nov. 2026"). */
  meta?: string;
  /** Not published yet: shown only to those who may preview it, marked so. */
  draft?: boolean;
}

/** Kind · episodes · running time, as one line. */
export function CourseFacts({ course }: { course: CourseCard }) {
  const { t } = useTranslation();
  const facts = [t(`courseType.${course.type}`)];
  if (course.episodes && (course.type === "series" || course.type === "movie")) {
    if (course.type === "series") facts.push(t("browse.episodes", { count: course.episodes }));
    if (course.durationSeconds) {
      const d = durationLabel(course.durationSeconds);
      facts.push(t(d.key, d.values));
    }
  }
  return (
    <p className="card-facts">
      {course.draft ? (
        <span className="badge card-draft" data-testid="card-draft">
          {t("courses.draft")}
        </span>
      ) : null}
      {facts.map((fact, i) => (
        <span key={i} className={i === 0 ? "card-kind" : undefined}>
          {fact}
        </span>
      ))}
    </p>
  );
}

/** A progress bar with its value in words for screen readers. */
export function ProgressBar({ percent }: { percent: number }) {
  const { t } = useTranslation();
  return (
    <div className="card-progress" role="img" aria-label={t("browse.progress", { percent })} data-progress={percent}>
      <span style={{ width: `${percent}%` }} />
    </div>
  );
}

/**
 * One course: cover (or a tinted placeholder with its initial), a progress bar when started, facts and
 * title. The title's link covers the whole card, so the card is one focusable target.
 *
 * On the server, the card's inner markup is kept by everything it shows (docs/decisions/030-kept-markup.md).
 * Its content reads nothing but its props and the translator (no other context, no state, no clock), so
 * the same inputs always give the same markup, and the browser hydrates it as if it had been rendered in
 * place. The whole `course` is part of the key, so a field shown later is part of it by itself.
 */
export function CourseCardItem({
  course,
  headingLevel = 3,
  priority = false,
  width = 320,
}: {
  course: CourseCard;
  headingLevel?: 2 | 3;
  priority?: boolean;
  width?: number;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const content = () => (
    <>
      <div className="card-media">
        {course.cover ? (
          <ProviderImage
            src={course.cover}
            bucket="cover"
            width={width}
            sizes={`(max-width: 600px) 80vw, ${width}px`}
            priority={priority}
            className="card-cover"
          />
        ) : (
          <div className="card-placeholder" aria-hidden="true" data-hue={course.id % 6}>
            {course.title.slice(0, 1)}
          </div>
        )}
        {course.progress != null ? <ProgressBar percent={course.progress} /> : null}
      </div>
      <div className="card-body">
        <CourseFacts course={course} />
        <Heading className="course-title">
          <ListLink to={`/courses/${course.id}`} className="card-link">
            {course.title}
          </ListLink>
        </Heading>
        {course.description ? <p className="card-description">{course.description}</p> : null}
        {course.meta ? <p className="course-meta">{course.meta}</p> : null}
      </div>
    </>
  );
  const props = { className: "card", "data-course-id": course.id };
  // In the browser the `.server` module is empty and the card renders in place (the choice never changes
  // within one side, so neither does the order of hooks); hydration finds the same DOM either way.
  return useKeptElement ? (
    // eslint-disable-next-line react-hooks/rules-of-hooks -- the same branch on every render of one side (above)
    useKeptElement("li", props, ["card", headingLevel, priority, width, course], content)
  ) : (
    <li {...props}>{content()}</li>
  );
}

/** A grid of course cards linking to their pages. */
export function CourseCards({
  courses,
  testId,
  headingLevel,
  eager = 0,
}: {
  courses: CourseCard[];
  testId?: string;
  headingLevel?: 2 | 3;
  eager?: number;
}) {
  return (
    <ul className="card-grid course-grid" data-testid={testId}>
      {courses.map((course, i) => (
        <CourseCardItem key={course.id} course={course} headingLevel={headingLevel} priority={i < eager} />
      ))}
    </ul>
  );
}

/**
 * A horizontal row of cards (a carousel, "continue watching"): a scroll container with scroll-snap that
 * works without JavaScript — it is focusable, so arrow keys scroll it, and each card's link takes Tab.
 * When JavaScript runs, previous/next buttons scroll it by a screenful.
 */
export function CourseRow({
  title,
  courses,
  testId,
  action,
  eager = 0,
  id,
  cover,
}: {
  title: ReactNode;
  courses: CourseCard[];
  testId?: string;
  action?: ReactNode;
  eager?: number;
  id: string;
  /** A cover behind the row's heading (a carousel's own cover on /carousels). */
  cover?: string | null;
}) {
  const { t } = useTranslation();
  const track = useRef<HTMLUListElement>(null);
  // The buttons appear only when JavaScript runs and the row is wider than the screen.
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const measure = () => setOverflows(Boolean(track.current && track.current.scrollWidth > track.current.clientWidth + 4));
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [courses.length]);
  const scroll = (direction: 1 | -1) => {
    const el = track.current;
    if (el)
      el.scrollBy({
        left: direction * el.clientWidth * 0.9,
        behavior: "smooth",
      });
  };
  return (
    <section className="row" aria-labelledby={`${id}-title`} data-testid={testId}>
      <div className={cover ? "row-head with-cover" : "row-head"}>
        {cover ? (
          <ProviderImage src={cover} bucket="cover" width={1280} sizes="(max-width: 1280px) 100vw, 1280px" className="row-head-cover" />
        ) : null}
        <h2 id={`${id}-title`}>{title}</h2>
        {action}
        {overflows ? (
          <div className="row-buttons">
            <button type="button" onClick={() => scroll(-1)} aria-label={t("browse.previous")} data-testid="row-previous">
              ‹
            </button>
            <button type="button" onClick={() => scroll(1)} aria-label={t("browse.next")} data-testid="row-next">
              ›
            </button>
          </div>
        ) : null}
      </div>
      {/* Focusable so the keyboard can scroll it (axe: scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus */}
      <ul className="row-track" ref={track} tabIndex={0} aria-labelledby={`${id}-title`}>
        {courses.map((course, i) => (
          <CourseCardItem key={course.id} course={course} priority={i < eager} />
        ))}
      </ul>
    </section>
  );
}
