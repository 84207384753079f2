import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export interface CourseCard {
  id: number;
  title: string;
  type: string;
  description?: string;
}

/** A grid of course cards linking to their pages. */
export function CourseCards({ courses, testId }: { courses: CourseCard[]; testId?: string }) {
  const { t } = useTranslation();
  return (
    <ul className="course-grid" data-testid={testId}>
      {courses.map((course) => (
        <li key={course.id} className="course-card" data-course-id={course.id}>
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
