import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { mayReadAdminAudit } from "~/access/rules";
import { Heading } from "~/components/heading";
import { withManagedOrganization } from "~/kernel/manage.server";
import { listAudit } from "~/models/admin-audit.server";
import { formatDate } from "~/utils/dates";
import { useTranslation } from "~/utils/translate";

/**
 * The audit of what admins did (issue 44; app/models/admin-audit.server.ts), for the organization's admins
 * under the dashboard's people: who added or removed whom in which group, and who made or unmade a group's
 * admins, newest first, a page at a time. Plain links and a table: the same without JavaScript.
 */
const PER_PAGE = 50;
const query = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) });

export function adminAuditLoader({ request, context, params }: LoaderFunctionArgs) {
  return withManagedOrganization(request, context, params, { area: "dashboard", capability: "read:organization" }, (m) => {
    if (!mayReadAdminAudit(m.viewer)) throw new Response("Forbidden", { status: 403 });
    const { page } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
    const { items, total } = listAudit(m.db, { page, perPage: PER_PAGE });
    const timeZone = m.organization.timeZone;
    return {
      page,
      pages: Math.max(1, Math.ceil(total / PER_PAGE)),
      total,
      entries: items.map((e) => ({
        id: e.id,
        at: e.at.toISOString(),
        when: formatDate(e.at, { dateStyle: "short", timeStyle: "short", timeZone }),
        action: e.action,
        via: e.via,
        actor: e.actorEmail,
        actorRole: e.actorRole,
        token: e.actorToken,
        person: e.subjectEmail,
        group: e.groupName,
        detail: e.detail,
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
        <Link to="/dashboard/users">{t("audit.back")}</Link>
      </div>
      <p className="hint">{t("audit.intro")}</p>
      {data.entries.length === 0 ? (
        <p className="empty-state" data-testid="audit-empty">
          {t("audit.empty")}
        </p>
      ) : (
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
                      <small className="hint">{e.action === "role_changed" ? t(`users.roles.${e.detail}`) : e.detail}</small>
                    </>
                  ) : null}
                </td>
                <td>{e.person}</td>
                <td>{e.group ?? "—"}</td>
                <td>{e.via === "api" && e.token && e.actor ? t("audit.token", { name: e.token }) : t(`audit.via.${e.via}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data.pages > 1 ? (
        <nav className="pager" aria-label={t("audit.pages")}>
          {data.page > 1 ? <Link to={`?page=${data.page - 1}`}>{t("audit.previous")}</Link> : null}
          <span>{t("audit.page", { page: data.page, pages: data.pages })}</span>
          {data.page < data.pages ? <Link to={`?page=${data.page + 1}`}>{t("audit.next")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
