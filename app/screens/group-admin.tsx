import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GroupMembers } from "~/components/group-members";
import { canManageGroup, getGroup, groupCourseList, listGroups, type GroupViewer } from "~/models/group.server";
import { requireCapability, type SessionAuth } from "~/utils/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { requireOrganization } from "~/utils/tenant.server";
import { memberIntent, membersPage } from "./group-detail";

/**
 * The group admin's screen (spec §6 "Groups have admins who manage the group"): the groups they
 * administer, each group's members with their progress, adding and removing members — and nothing else.
 * The capability (write:group) only opens the door; every group is checked against the person's own.
 */
export function groupViewerOf(auth: Pick<SessionAuth, "role" | "person">): GroupViewer {
  return { personId: auth.person?.id ?? null, organizationAdmin: auth.role === "admin" || auth.role === "super_admin" };
}

async function guard(request: Request, context: Parameters<typeof requireOrganization>[0]) {
  const { db } = requireOrganization(context);
  const auth = await requireCapability(request, context, "write:group");
  return { db, viewer: groupViewerOf(auth) };
}

export async function myGroupsLoader({ request, context }: LoaderFunctionArgs) {
  const { db, viewer } = await guard(request, context);
  return { groups: listGroups(db, viewer).map((g) => ({ id: g.id, name: g.name, description: g.description, members: g.members, courses: g.courses })) };
}

export function MyGroups() {
  const { t } = useTranslation();
  const { groups } = useLoaderData<typeof myGroupsLoader>();
  return (
    <section>
      <h1>{t("groups.mine.title")}</h1>
      {groups.length === 0 ? (
        <p className="empty-state panel">{t("groups.mine.empty")}</p>
      ) : (
        <ul className="course-grid" data-testid="my-groups">
          {groups.map((g) => (
            <li key={g.id} className="course-card group-card" data-group={g.name}>
              <h2 className="course-title">
                <Link to={`/groups/${g.id}`}>{g.name}</Link>
              </h2>
              {g.description ? <p className="course-description">{g.description}</p> : null}
              <p className="course-meta">{t("groups.counts", { members: g.members, courses: g.courses })}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function managedGroup(db: Parameters<typeof getGroup>[0], viewer: GroupViewer, id: string | undefined) {
  const group = /^\d{1,15}$/.test(id ?? "") ? getGroup(db, Number(id)) : undefined;
  // Another group's page does not exist for this person: 404, not 403, so ids reveal nothing.
  if (!group || !canManageGroup(db, viewer, group.id)) throw new Response("Not Found", { status: 404 });
  return group;
}

export async function myGroupLoader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer } = await guard(request, context);
  const group = managedGroup(db, viewer, params.groupId);
  return {
    group: { id: group.id, name: group.name, description: group.description },
    courses: groupCourseList(db, group.id).map((c) => ({ id: c.id, title: c.title })),
    members: membersPage(db, group.id, request),
  };
}

export async function myGroupAction({ request, context, params }: ActionFunctionArgs) {
  const { db, viewer } = await guard(request, context);
  const group = managedGroup(db, viewer, params.groupId);
  const result = memberIntent(db, group.id, await request.formData(), { canSetAdmin: false });
  if (!result.done) return json({ error: result.error! }, { status: 400 });
  return redirectWithFlash(`/groups/${group.id}`, "groups.flash.membersChanged");
}

export function MyGroup() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof myGroupLoader>();
  const action = useActionData<{ error: string }>();
  return (
    <section className="group-page">
      <div className="toolbar">
        <h1>{data.group.name}</h1>
        <Link to="/groups">{t("groups.mine.back")}</Link>
      </div>
      {data.group.description ? <p className="course-description">{data.group.description}</p> : null}
      {data.courses.length ? (
        <p className="hint">
          {t("groups.courses.title")}: {data.courses.map((c) => c.title).join(", ")}
        </p>
      ) : null}
      <GroupMembers members={data.members} canSetAdmin={false} errors={action?.error ? [action.error] : undefined} />
    </section>
  );
}
