import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { mayReadAdminAudit } from "~/access/rules";
import { Heading } from "~/components/heading";
import { withManagedOrganization } from "~/kernel/manage.server";
import { getUserSettings } from "~/models/user-settings.server";
import { auditList } from "~/models/admin-audit.server";
import { ADMIN_AUDIT_ACTIONS, ADMIN_AUDIT_SUBJECTS, ADMIN_AUDIT_VIA } from "~/models/vocabulary";
import { AUDIT_LIST } from "~/models/forms/audit-list";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { isWholeList, listSearch, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { formatDate } from "~/utils/dates";
import { useTranslation } from "~/utils/translate";

/**
 * The audit of what admins did (issue 44; app/models/admin-audit.server.ts), for the organization's admins
 * under the dashboard's people: who added or removed whom in which group, and who made or unmade a group's
 * admins, and each person a bulk action changed (issue 50), newest first, a page at a time; searched and filtered
 * (app/models/forms/audit-list.ts) and exported as CSV with the same search and filters (/dashboard/users/audit/export).
 * Plain links, a GET form and a table: the same without JavaScript.
 */
export const BASE = "/dashboard/users/audit";
/** The actions whose detail is a type (learner, admin, none). */
const ROLE_DETAIL = new Set(["role_changed", "created", "deleted"]);
export function adminAuditLoader({ request, context, params }: LoaderFunctionArgs) {
  return withManagedOrganization(request, context, params, { area: "dashboard", capability: "read:organization" }, (m) => {
    if (!mayReadAdminAudit(m.viewer)) throw new Response("Forbidden", { status: 403 });
    const { query, errors } = parseListQuery(new URL(request.url), AUDIT_LIST);
    const list = auditList(m.db, query);
    const timeZone = m.organization.timeZone;
    return {
      query: { ...query, page: list.page },
      errors,
      retentionDays: getUserSettings(m.db).auditRetentionDays,
      filtered: !isWholeList(query, AUDIT_LIST),
      page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
      locale: dateLocaleFor(m.viewer),
      exportUrl: `${BASE}/export${listSearch({ ...query, page: 1 }, AUDIT_LIST)}`,
      entries: list.rows.map((e) => ({
        id: e.id,
        at: e.at.toISOString(),
        when: formatDate(e.at, { dateStyle: "short", timeStyle: "short", timeZone }),
        action: e.action,
        via: e.via,
        actor: e.actorEmail,
        actorRole: e.actorRole,
        token: e.actorToken,
        person: e.subjectEmail,
        subject: e.subjectKind,
        group: e.groupName,
        detail: e.detail,
        address: e.ip,
      })),
    };
  });
}

export function AdminAudit() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof adminAuditLoader>();
  return (
    <section>
      <div className="toolbar">
        <Heading>{t("audit.title")}</Heading>
        {data.page.total > 0 ? (
          <a href={data.exportUrl} className="button" download data-testid="audit-export">
            {t("audit.export")}
          </a>
        ) : null}
        <Link to="/dashboard/users">{t("audit.back")}</Link>
      </div>
      <p className="hint">{t("audit.intro")}</p>
      <p className="hint" data-testid="audit-retention">
        {data.retentionDays === null ? t("audit.retention.keptForever") : t("audit.retention.kept", { days: data.retentionDays })}{" "}
        <Link to="/dashboard/users/settings">{t("import.settings.title")}</Link>
      </p>
      {data.page.total > 0 || data.filtered ? (
        <ListControls
          id="audit-list"
          label={t("audit.find")}
          searchLabel={t("audit.search")}
          query={data.query}
          filters={[
            {
              name: "action",
              label: t("audit.columns.what"),
              any: t("audit.anyAction"),
              options: ADMIN_AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`audit.actions.${a}`) })),
            },
            {
              name: "via",
              label: t("audit.columns.via"),
              any: t("audit.anyVia"),
              options: ADMIN_AUDIT_VIA.map((v) => ({ value: v, label: t(`audit.via.${v}`) })),
            },
            {
              name: "subject",
              label: t("audit.subject.label"),
              any: t("audit.subject.any"),
              options: ADMIN_AUDIT_SUBJECTS.map((k) => ({ value: k, label: t(`audit.subject.${k}`) })),
            },
          ]}
          sorts={[{ value: "at", label: t("audit.columns.when") }]}
          errors={data.errors}
          clear={BASE}
        />
      ) : null}
      {data.entries.length === 0 ? (
        <p className="empty-state" data-testid="audit-empty">
          {data.filtered ? t("lists.none") : t("audit.empty")}
        </p>
      ) : (
        // A region of its own, reached by the keyboard, as the table may scroll sideways (WCAG 2.1.1; axe's
        // scrollable-region-focusable): the table holds nothing focusable that would let a keyboard scroll it.
        // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <div className="table-scroll" role="region" aria-label={t("audit.title")} tabIndex={0}>
          <table className="table" data-testid="audit">
            <thead>
              <tr>
                <th>{t("audit.columns.when")}</th>
                <th>{t("audit.columns.who")}</th>
                <th>{t("audit.columns.what")}</th>
                <th>{t("audit.columns.person")}</th>
                <th>{t("audit.columns.group")}</th>
                <th>{t("audit.columns.via")}</th>
              </tr>
            </thead>
            <tbody>
              {data.entries.map((e) => (
                <tr key={e.id} data-action={e.action} data-actor={e.actor ?? ""} data-person={e.person}>
                  <td>
                    <time dateTime={e.at}>{e.when}</time>
                  </td>
                  <td>
                    {e.actor ?? t("audit.token", { name: e.token ?? "" })}
                    <br />
                    <small className="hint">{t(`audit.roles.${e.actorRole}`)}</small>
                  </td>
                  <td>
                    {t(`audit.actions.${e.action}`)}
                    {e.detail ? (
                      <>
                        <br />
                        <small className="hint">{ROLE_DETAIL.has(e.action) ? t(`users.roles.${e.detail}`) : e.detail}</small>
                      </>
                    ) : null}
                  </td>
                  <td>{e.subject === "course" ? t("audit.subject.courseNamed", { title: e.person }) : e.person}</td>
                  <td>{e.group ?? "—"}</td>
                  <td>
                    {e.via === "api" && e.token && e.actor ? t("audit.token", { name: e.token }) : t(`audit.via.${e.via}`)}
                    {e.address ? (
                      <>
                        <br />
                        <small className="hint" data-testid="audit-address">
                          <span className="visually-hidden">{t("audit.columns.from")}: </span>
                          {e.address}
                        </small>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ListPager
        {...data.page}
        shown={data.entries.length}
        locale={data.locale}
        link={(n) => `${BASE}${listSearch({ ...data.query, page: n }, AUDIT_LIST)}`}
        label={t("audit.pages")}
      />
    </section>
  );
}
