import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { LevelCard } from "~/components/leaderboard-summary";
import { BoardTable, WidgetCard } from "~/components/leaderboard-board";
import { learnerBoardPage } from "~/screens/leaderboard-page.server";
import { requireCapability } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";
import styles from "~/styles/leaderboard.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * docs/product.md §2 /leaderboard: the organization's ranking (all time, this month, this week) or one course's,
 * the learner's own standing even outside the top, and the three widgets of docs/product.md §9.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const auth = await requireCapability(request, context, "read:leaderboard");
  return learnerBoardPage(db, auth, new URL(request.url).searchParams);
}

export default function LeaderboardPage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const tab = (period: string) => `?period=${period}`;
  return (
    <section className="lb-page">
      <h1>{t("leaderboard.title")}</h1>
      <LevelCard summary={data.summary} />
      {data.summary.hidden ? (
        <p className="lb-notice" data-testid="hidden-notice">
          {t("leaderboard.hiddenNotice")} <Link to="/profile/settings">{t("leaderboard.changeVisibility")}</Link>
        </p>
      ) : null}
      <div className="lb-layout">
        <div>
          <nav className="tabs" aria-label={t("leaderboard.periods")}>
            {(["all", "month", "week"] as const).map((p) => (
              <Link key={p} to={tab(p)} className={!data.course && data.period === p ? "active" : undefined} data-testid={`period-${p}`}>
                {t(`leaderboard.period.${p}`)}
              </Link>
            ))}
          </nav>
          <Form method="get" className="search lb-course-select">
            <label htmlFor="lb-course">{t("leaderboard.courseBoard")}</label>
            <select id="lb-course" name="course" defaultValue={data.course?.id ?? ""}>
              <option value="">{t("leaderboard.chooseCourse")}</option>
              {data.courses.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
            <button type="submit">{t("leaderboard.show")}</button>
          </Form>
          <h2 data-testid="board-title">
            {data.course ? t("leaderboard.courseTitle", { title: data.course.title }) : t(`leaderboard.period.${data.period}`)}
          </h2>
          <BoardTable entries={data.entries} me={data.me} meId={data.meId} unit={t("leaderboard.pointsShort")} />
        </div>
        <aside className="lb-widgets" aria-label={t("leaderboard.widgets")}>
          {data.widgets.map((w) => (
            <WidgetCard key={w.name} name={w.name} entries={w.entries} mine={w.mine} meId={data.meId} />
          ))}
        </aside>
      </div>
    </section>
  );
}
