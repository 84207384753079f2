import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ProviderImage } from "~/components/provider-image";

export interface CourseCard {
  id: number;
  title: string;
  type: string;
  description?: string;
  /** The image provider's address of the cover (platform.imageUrl), when the course has one. */
  cover?: string | null;
}

/** A grid of course cards linking to their pages. */
export function CourseCards({ courses, testId }: { courses: CourseCard[]; testId?: string }) {
  const { t } = useTranslation();
  return (
    <ul className="course-grid" data-testid={testId}>
      {courses.map((course) => (
        <li key={course.id} className={course.cover ? "course-card with-cover" : "course-card"} data-course-id={course.id}>
          {course.cover ? (
            <ProviderImage src={course.cover} bucket="cover" width={320} sizes="(max-width: 600px) 90vw, 320px" className="course-cover" />
          ) : null}
          <span className="course-type">{t(`courseType.${course.type}`)}</span>
          <h3 className="course-title">
            <Link to={`/courses/${course.id}`}>{course.title}</Link>
          </h3>
          {course.description ? <p className="course-description">{course.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}
