import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CourseDetails } from "~/components/player/course-details";
import { CourseHero } from "~/components/player/course-hero";
import type { loader } from "~/screens/course-page.server";
import courseStyles from "~/styles/course.css";

export { action, loader } from "~/screens/course-page.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: courseStyles }];

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...matches.flatMap((m) => m.meta ?? []).filter((m) => !("title" in m)),
  { title: data?.course.title ?? "" },
];

export default function CoursePage() {
  const data = useLoaderData<typeof loader>();
  return (
    <article className="course-page">
      <CourseHero data={data} />
      <CourseDetails data={data} />
    </article>
  );
}
