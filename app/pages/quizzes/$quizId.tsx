import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { QuizPlayer } from "~/components/quiz/quiz-player";
import { getQuiz } from "~/models/quiz.server";
import { lessonForTaking } from "~/models/quiz-lessons.server";
import { quizPlayerState } from "~/models/quiz-player.server";
import { runQuizStep } from "~/models/quiz-steps.server";
import quizStyles from "~/styles/quiz.css";
import { learnerContext } from "~/kernel/learner.server";
import { readForm } from "~/utils/form-data.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: quizStyles }];

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...matches.flatMap((m) => m.meta ?? []).filter((m) => !("title" in m)),
  { title: data?.title ?? "" },
];

async function load(
  request: Request,
  context: LoaderFunctionArgs["context"],
  params: LoaderFunctionArgs["params"],
  lessonParam: string | null,
) {
  const ctx = learnerContext(request, context);
  const url = new URL(request.url);
  if (!ctx.person) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: url.pathname + url.search })}`);
  const quiz = getQuiz(ctx.db, Number(params.quizId) || -1);
  const lessonId = Number(lessonParam) || null;
  const place = quiz ? lessonForTaking(ctx.db, ctx.viewer, quiz.id, lessonId) : "none";
  if (!quiz || place === "none") throw new Response("Not Found", { status: 404 });
  return { ...ctx, learner: ctx.person, quiz, place };
}

/**
 * A quiz on its own page (/quizzes/{id}[?lesson=]): learners reach it through a quiz lesson they may open
 * (the attempt then counts for that lesson); editors may take it outside any course.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { db, learner, quiz, place } = await load(request, context, params, url.searchParams.get("lesson"));
  return {
    title: quiz.title,
    course: place ? { id: place.course.id, title: place.course.title, lessonId: place.lesson.id } : null,
    quiz: { failed: false, quizId: quiz.id, state: quizPlayerState(db, { quiz, userId: learner.id }) },
    confirm: url.searchParams.get("quiz_confirm") === "1",
    error: url.searchParams.get("quiz_error"),
    returnTo: url.pathname + (place ? `?lesson=${place.lesson.id}` : ""),
  };
}

/** Every step of taking a quiz (start, answer and move, submit, retake) posts here, from this page and the lesson player. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const form = await readForm(request, context);
  const { db, learner, quiz, place } = await load(request, context, params, (form.get("lesson_id") as string | null) ?? null);
  return runQuizStep(db, { quiz, userId: learner.id, lesson: place?.lesson ?? null, form });
}

export default function QuizPage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <div className="quiz-page">
      {data.course ? (
        <p>
          <Link to={`/courses/${data.course.id}/lessons/${data.course.lessonId}`}>← {data.course.title}</Link>
        </p>
      ) : null}
      <h1>{data.title}</h1>
      <QuizPlayer
        data={data.quiz}
        returnTo={data.returnTo}
        lessonId={data.course?.lessonId ?? null}
        confirm={data.confirm}
        error={data.error}
      />
      <p className="hint">{t("quiz.player.serverGraded")}</p>
    </div>
  );
}
