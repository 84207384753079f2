import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { EmptyState } from "~/components/empty-state";
import { searchPaths } from "~/models/paths/learner.server";
import { search } from "~/models/search.server";
import { learnerContext } from "~/kernel/learner.server";
import { clock } from "~/utils/duration";

/** The search page: a GET form, so results have an address and work without JavaScript. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db, viewer } = learnerContext(request, context);
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  if (!q) return { q, items: [], total: 0, paths: [] };
  const { items, total } = search(db, viewer, q, { limit: 50 });
  // Learning paths (issue 49) whose title or description holds the words, above the courses' hits.
  return { q, items, total, paths: searchPaths(db, viewer, q) };
}

/** A hit's page: the course, the lesson, or for words spoken in a video the lesson at that moment (`?t=`). */
function hitPath(hit: { kind: string; id: number; course_id: number; seconds: number | null }) {
  if (hit.kind === "course" || hit.kind === "material") return `/courses/${hit.course_id}`;
  const lesson = `/courses/${hit.course_id}/lessons/${hit.id}`;
  return hit.seconds !== null ? `${lesson}?t=${hit.seconds}` : lesson;
}

export default function SearchPage() {
  const { t } = useTranslation();
  const { q, items, total, paths } = useLoaderData<typeof loader>();
  return (
    <section className="search-page">
      <h1>{t("search.title")}</h1>
      <p className="hint">{t("browse.searchHint")}</p>
      <Form method="get" className="search" role="search">
        <label>
          <span className="visually-hidden">{t("search.label")}</span>
          <input type="search" name="q" defaultValue={q} placeholder={t("search.label")} data-testid="search-input" />
        </label>
        <button type="submit" data-testid="search-submit">
          {t("search.submit")}
        </button>
      </Form>
      {paths.length ? (
        <section aria-labelledby="search-paths">
          <h2 id="search-paths">{t("paths.title")}</h2>
          <ul className="search-results hit-list" data-testid="search-paths">
            {paths.map((p) => (
              <li key={p.id} data-kind="path">
                <span className="badge">{t("paths.kicker")}</span>{" "}
                <Link className="hit-link" to={`/paths/${p.id}`}>
                  {p.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {q ? (
        items.length ? (
          <>
            <p className="hint">{t("search.results", { count: total })}</p>
            <ol className="search-results hit-list" data-testid="search-results">
              {items.map((hit) => (
                <li key={`${hit.kind}-${hit.id}`} data-kind={hit.kind}>
                  <span className="badge">{hit.kind === "transcript" ? t("captions.search.kind") : t(`search.kinds.${hit.kind}`)}</span>{" "}
                  <Link className="hit-link" to={hitPath(hit)}>
                    {hit.title}
                    {hit.seconds !== null ? (
                      <span className="hit-moment"> · {t("captions.search.at", { time: clock(hit.seconds) })}</span>
                    ) : null}
                  </Link>
                  {hit.snippet ? (
                    <p className="course-description">{hit.kind === "transcript" ? `“${hit.snippet}”` : hit.snippet}</p>
                  ) : null}
                </li>
              ))}
            </ol>
          </>
        ) : paths.length ? null : (
          <EmptyState
            testId="search-empty"
            title={t("search.empty", { q })}
            body={t("browse.empty.search")}
            to="/categories"
            action={t("browse.empty.searchAction")}
          />
        )
      ) : (
        <EmptyState
          testId="search-start"
          title={t("search.title")}
          body={t("browse.empty.searchStart")}
          to="/categories"
          action={t("browse.empty.searchAction")}
          compact
        />
      )}
    </section>
  );
}
