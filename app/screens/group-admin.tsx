import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { Viewer } from "~/access/viewer";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { EmptyState } from "~/components/empty-state";
import { GroupMembers } from "~/components/group-members";
import { ProviderImage } from "~/components/provider-image";
import { canManageGroup, getGroup, listGroups } from "~/models/group.server";
import { groupCourseList } from "~/models/group-courses.server";
import { requireCapability } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { requireOrganization } from "~/utils/tenant.server";
import { memberIntent, membersPage } from "./group-detail";
import { readForm } from "~/utils/form-data.server";

/**
 * The group admin's screen (docs/product.md §6 "Groups have admins who manage the group"): the groups they
 * administer, each group's members with their progress, adding and removing members — and nothing else.
 * The capability (write:group) only opens the door; every group is checked against the person's own.
 */
async function guard(request: Request, context: Parameters<typeof requireOrganization>[0]) {
  const { db } = requireOrganization(context);
  const auth = await requireCapability(request, context, "write:group");
  return { db, viewer: auth };
}

export async function myGroupsLoader({ request, context }: LoaderFunctionArgs) {
  const { db, viewer } = await guard(request, context);
  const { organization } = requireOrganization(context);
  // Learner home and browsing (issue 18): the group's cover from the file library.
  const cover = (fileId: number | null) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  return {
    groups: listGroups(db, viewer).map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      members: g.members,
      courses: g.courses,
      cover: cover(g.coverFileId),
    })),
  };
}

export function MyGroups() {
  const { t } = useTranslation();
  const { groups } = useLoaderData<typeof myGroupsLoader>();
  return (
    <section>
      <h1>{t("groups.mine.title")}</h1>
      {groups.length === 0 ? (
        <EmptyState
          testId="groups-empty"
          title={t("groups.mine.empty")}
          body={t("browse.empty.groups")}
          to="/"
          action={t("browse.empty.groupsAction")}
        />
      ) : (
        <ul className="card-grid" data-testid="my-groups">
          {groups.map((g, i) => (
            <li key={g.id} className="card group-card" data-group={g.name}>
              <div className="card-media">
                {g.cover ? (
                  <ProviderImage
                    src={g.cover}
                    bucket="cover"
                    width={320}
                    sizes="(max-width: 600px) 90vw, 320px"
                    priority={i < 4}
                    className="card-cover"
                  />
                ) : (
                  <div className="card-placeholder" aria-hidden="true" data-hue={g.id % 6}>
                    {g.name.slice(0, 1)}
                  </div>
                )}
              </div>
              <div className="card-body">
                <h2 className="course-title">
                  <Link to={`/groups/${g.id}`} className="card-link">
                    {g.name}
                  </Link>
                </h2>
                {g.description ? <p className="card-description">{g.description}</p> : null}
                <p className="course-meta">{t("groups.counts", { members: g.members, courses: g.courses })}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function managedGroup(db: Parameters<typeof getGroup>[0], viewer: Viewer, id: string | undefined) {
  const group = /^\d{1,15}$/.test(id ?? "") ? getGroup(db, Number(id)) : undefined;
  // Another group's page does not exist for this person: 404, not 403, so ids reveal nothing.
  if (!group || !canManageGroup(viewer, group.id)) throw new Response("Not Found", { status: 404 });
  return group;
}

export async function myGroupLoader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer } = await guard(request, context);
  const group = managedGroup(db, viewer, params.groupId);
  return {
    group: { id: group.id, name: group.name, description: group.description },
    courses: groupCourseList(db, group.id).map((c) => ({ id: c.id, title: c.title })),
    members: membersPage(db, viewer, group.id, request, `/groups/${group.id}`),
  };
}

export async function myGroupAction({ request, context, params }: ActionFunctionArgs) {
  const { db, viewer } = await guard(request, context);
  const group = managedGroup(db, viewer, params.groupId);
  const result = memberIntent(db, viewer, group.id, await readForm(request, context), { canSetAdmin: false });
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
        {/* Assigning courses to the group with a due date (issue 34): app/screens/assignments.tsx. */}
        <Link to={`/groups/${data.group.id}/assignments`} className="button" data-testid="group-assignments">
          {t("assigning.link")}
        </Link>
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
