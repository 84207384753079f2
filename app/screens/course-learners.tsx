import type { SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Heading } from "~/components/heading";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { COURSE_LEARNER_LIST, LEARNER_STATES } from "~/models/forms/course-learner-list";
import { listSearch } from "~/utils/list-query";
import { useTranslation } from "~/utils/translate";
import type { courseLearnersLoader } from "./course-learners.server";

/**
 * A course's learners (issue 50): who has begun, completed or been assigned the course, with their progress, state,
 * last activity and completion day; the list's controls and pager are the shared ones
 * (app/components/list/list-controls.tsx). The loader is app/screens/course-learners.server.ts.
 */
type Data = SerializeFrom<Awaited<ReturnType<ReturnType<typeof courseLearnersLoader>>>>;

export function CourseLearners() {
  const { t } = useTranslation();
  const data = useLoaderData<Data>();
  return (
    <section data-testid="course-learners">
      <div className="toolbar">
        <Heading>{t("peopleLists.learners.title", { title: data.title })}</Heading>
        <Link to={data.back}>{t("peopleLists.learners.back")}</Link>
      </div>
      <p className="hint">{t("peopleLists.learners.intro", { count: data.lessonTotal })}</p>
      {data.page.total === 0 && !data.filtered ? (
        <p className="empty-state panel">{t("peopleLists.learners.empty")}</p>
      ) : (
        <>
          <ListControls
            id="learners-list"
            label={t("peopleLists.learners.label")}
            searchLabel={t("peopleLists.search")}
            query={data.query}
            filters={[
              {
                name: "state",
                label: t("peopleLists.learners.state"),
                any: t("peopleLists.learners.anyState"),
                options: LEARNER_STATES.map((s) => ({ value: s, label: t(`peopleLists.learners.states.${s}`) })),
              },
              {
                name: "group",
                label: t("lists.users.group"),
                any: t("lists.users.anyGroup"),
                options: data.groups.map((g) => ({ value: String(g.id), label: g.name })),
              },
              {
                name: "assigned",
                label: t("peopleLists.learners.assigned"),
                any: t("peopleLists.learners.anyAssigned"),
                options: [
                  { value: "yes", label: t("peopleLists.learners.assignedYes") },
                  { value: "no", label: t("peopleLists.learners.assignedNo") },
                ],
              },
            ]}
            sorts={COURSE_LEARNER_LIST.sorts.map((s) => ({ value: s, label: t(`peopleLists.learners.sorts.${s}`) }))}
            errors={data.errors}
            clear={data.base}
          />
          {data.learners.length > 0 && (
            <div className="table-scroll">
              <table className="table" data-testid="learners">
                <caption className="visually-hidden">{t("peopleLists.learners.caption", { title: data.title })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("users.name")}</th>
                    <th scope="col">{t("peopleLists.learners.progress")}</th>
                    <th scope="col">{t("peopleLists.learners.state")}</th>
                    <th scope="col">{t("peopleLists.learners.lastActivity")}</th>
                    <th scope="col">{t("peopleLists.learners.completedOn")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.learners.map((l) => (
                    <tr key={l.id} data-learner={l.email} data-state={l.state}>
                      <td>
                        <Link to={`${data.people}/${l.id}/overview`} className="user-name">
                          {l.name}
                        </Link>
                        {l.assigned ? <span className="badge">{t("peopleLists.learners.assignedBadge")}</span> : null}
                        <br />
                        <small className="hint">{l.email}</small>
                      </td>
                      <td>
                        <div className="group-progress">
                          <progress max={100} value={l.percent} aria-label={t("peopleLists.learners.progressOf", { name: l.name })} />
                          <small data-percent={l.percent}>{t("peopleLists.learners.percent", { percent: l.percent })}</small>
                        </div>
                      </td>
                      <td>
                        <span className={`state-badge state-${l.state === "completed" ? "done" : l.state.replace("_", "-")}`}>
                          {t(`peopleLists.learners.states.${l.state}`)}
                        </span>
                      </td>
                      <td>{l.lastActivity ?? "—"}</td>
                      <td>{l.completedOn ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ListPager
            {...data.page}
            shown={data.learners.length}
            locale={data.locale}
            link={(n) => `${data.base}${listSearch(data.query, COURSE_LEARNER_LIST, { page: n })}`}
            label={t("lists.pages")}
          />
        </>
      )}
    </section>
  );
}
