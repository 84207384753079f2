import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { CourseCertificate } from "~/components/course-certificate";
import { CourseCompletion } from "~/components/course-completion";
import type { CoursePageData } from "~/screens/course-page.server";
import { EpisodeList } from "./episode-list";
import { Icon } from "./icons";

/** Below the hero: the episodes, and beside them the certificate, the description, materials, links and rating. */
export function CourseDetails({ data }: { data: CoursePageData }) {
  const { t } = useTranslation();
  const { course } = data;
  const listsEpisodes = course.type === "series" || course.type === "movie" || data.episodes.length > 0;
  return (
    <div className={listsEpisodes ? "course-body" : "course-body single"}>
      {listsEpisodes ? (
        <section className="course-episodes" aria-labelledby="episodes-heading">
          <h2 id="episodes-heading">
            {t("learn.episodes")} <span className="count">{data.episodes.length}</span>
          </h2>
          {data.episodes.length ? (
            <EpisodeList courseId={course.id} episodes={data.episodes} open={!data.access} />
          ) : (
            <p className="empty-state">{t("player.noEpisodes")}</p>
          )}
        </section>
      ) : null}
      <aside className="course-side">
        <CourseCompletion completion={data.completion} open={!data.access} />
        <CourseCertificate certificate={data.certificate} />
        {course.description && course.aboutNeeded ? (
          <section className="side-card">
            <h2>{t("learn.info")}</h2>
            {/* Stored descriptions are sanitised with an allowlist when saved (app/utils/sanitize.server.ts). */}
            <div className="rich-text" dangerouslySetInnerHTML={{ __html: course.description }} />
          </section>
        ) : null}
        {data.materials.length ? (
          <section className="side-card">
            <h2>{t("learn.materials")}</h2>
            <ul className="resource-list">
              {data.materials.map((m) => (
                <li key={m.id}>
                  {m.url ? (
                    <a href={m.url}>
                      <Icon name="download" /> {m.title}
                    </a>
                  ) : (
                    m.title
                  )}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {data.links.length ? (
          <section className="side-card">
            <h2>{t("learn.links")}</h2>
            <ul className="resource-list">
              {data.links.map((l) => (
                <li key={l.id}>
                  <a href={l.url} rel="noopener noreferrer nofollow" target="_blank">
                    <Icon name="link" /> {l.title}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section className="side-card" data-testid="rating">
          <h2>{t("learn.rating")}</h2>
          <p className="rating-summary">
            {data.rating.average ? t("learn.average", { average: data.rating.average, count: data.rating.count }) : t("learn.noRatings")}
          </p>
          {data.signedIn && !data.access ? (
            <Form method="post" className="stars" aria-label={t("player.yourRating")}>
              <input type="hidden" name="intent" value="rate" />
              {[1, 2, 3, 4, 5].map((n) => (
                <button
                  key={n}
                  type="submit"
                  name="stars"
                  value={n}
                  aria-pressed={data.rating.mine === n}
                  aria-label={t("learn.stars", { count: n })}
                  data-testid={`rate-${n}`}
                  className={data.rating.mine && n <= data.rating.mine ? "star on" : "star"}
                >
                  ★
                </button>
              ))}
            </Form>
          ) : null}
        </section>
      </aside>
    </div>
  );
}
