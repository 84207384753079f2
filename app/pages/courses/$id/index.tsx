import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CourseDetails } from "~/components/player/course-details";
import { CourseHero } from "~/components/player/course-hero";
import type { loader } from "~/screens/course-page.server";
import courseStyles from "~/styles/course.css";
import { pageMeta } from "~/utils/meta";

export { action, loader } from "~/screens/course-page.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: courseStyles }];

// The course's own description (its first sentences, as plain text) describes the page.
export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta(matches, { title: data?.course.title ?? "", description: data?.course.summary });

export default function CoursePage() {
  const data = useLoaderData<typeof loader>();
  return (
    <article className="course-page">
      <CourseHero data={data} />
      <CourseDetails data={data} />
    </article>
  );
}
