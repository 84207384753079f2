import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LessonPlayer } from "~/components/player/lesson-player";
import type { loader } from "~/screens/lesson-page.server";
import playerStyles from "~/styles/player.css";
import courseStyles from "~/styles/course.css";
import quizStyles from "~/styles/quiz.css";
import { pageMeta } from "~/utils/meta";

export { action, loader } from "~/screens/lesson-page.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: quizStyles },
  { rel: "stylesheet", href: courseStyles },
  { rel: "stylesheet", href: playerStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta(matches, { title: data ? `${data.lesson.title} · ${data.course.title}` : "" });

export default function LessonPage() {
  const data = useLoaderData<typeof loader>();
  return <LessonPlayer data={data} />;
}
