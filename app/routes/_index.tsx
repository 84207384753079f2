import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listPublishedCourses } from "~/models/course.server";
import { formatDate } from "~/utils/i18n";
import { richTextToPlain } from "~/utils/sanitize.server";

const HOME_COURSE_LIMIT = 24;

export async function loader({ context }: LoaderFunctionArgs) {
  const { organization, db } = context;
  if (!organization || !db) return { kind: "platform" as const };
  const { items } = listPublishedCourses(db, { page: 1, perPage: HOME_COURSE_LIMIT });
  return {
    kind: "organization" as const,
    // Descriptions are rich text; the card shows their words only.
    courses: items.map((c) => ({ ...c, description: richTextToPlain(c.description), createdAt: c.createdAt.toISOString() })),
  };
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (data.kind === "platform") {
    return (
      <section className="platform-intro">
        <h1>{t("platform.title")}</h1>
        <p>{t("platform.intro")}</p>
      </section>
    );
  }
  return (
    <section>
      <h1>{t("home.title")}</h1>
      {data.courses.length === 0 ? (
        <p className="empty-state">{t("home.empty")}</p>
      ) : (
        <ul className="course-grid">
          {data.courses.map((course) => (
            <li key={course.id} className="course-card" data-course-id={course.id}>
              <span className="course-type">{t(`courseType.${course.type}`)}</span>
              <h2 className="course-title">{course.title}</h2>
              <p className="course-description">{course.description}</p>
              <p className="course-meta">{t("home.added", { date: formatDate(course.createdAt) })}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
