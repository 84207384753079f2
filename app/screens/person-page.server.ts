import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { manageableGroupIds, mayReadAdminAudit, maySeePerson } from "~/access/rules";
import type { AppLoadContext } from "@remix-run/node";
import { withManagedOrganization, type Managed } from "~/kernel/manage.server";
import { organizationRealm } from "~/models/auth/realm.server";
import { deviceView, listDevices, revokeDevice } from "~/models/auth/session.server";
import { membershipsOf } from "~/models/group-members.server";
import { personOverview } from "~/models/person-page.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm } from "~/utils/form-data.server";
import { dateLocaleFor } from "./analytics.server";
import type { UsersMount } from "./organization-users";

/**
 * A person's page (issue 50): everything about one person an admin looks up (app/models/person-page.server.ts), with
 * their devices to sign out one by one, and links to edit, deactivate or delete them. Mounted with the other people
 * screens (/dashboard/users/{id}/overview, and under an organization's screens in /dashboard and /admin).
 */
function personFrom(managed: Managed, userId: string | undefined, origins: string[]) {
  const id = /^\d{1,15}$/.test(userId ?? "") ? Number(userId) : 0;
  const reach = { groups: manageableGroupIds(managed.viewer), audit: mayReadAdminAudit(managed.viewer), origins };
  const overview = id ? personOverview(managed.db, id, reach) : undefined;
  if (
    !overview ||
    !maySeePerson(
      managed.viewer,
      membershipsOf(managed.db, id).map((m) => m.groupId),
    )
  )
    throw new Response("Not Found", { status: 404 });
  return overview;
}

/** The organization's own address and this request's: the accounts its launched content names people by. */
const originsOf = (context: AppLoadContext, managed: Managed, request: Request) => [
  context.platform.originFor(managed.organization),
  new URL(request.url).origin,
];

export function personLoader(mount: UsersMount) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "read:user" }, (managed) => {
      const overview = personFrom(managed, params.userId, originsOf(context, managed, request));
      const realm = organizationRealm(managed.db, managed.organization);
      return {
        base: mount.usersBase(managed),
        isSelf: managed.area === "dashboard" && managed.viewer.person.id === overview.profile.id,
        locale: dateLocaleFor(managed.viewer),
        person: overview,
        devices: listDevices(realm, overview.profile.id).map((s) => deviceView(s, -1)),
      };
    });
}

/** Signs one of the person's devices out (`intent=revoke-device`, `device`: its id). */
export function personAction(mount: UsersMount) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "write:user" }, async (managed) => {
      const overview = personFrom(managed, params.userId, []);
      const form = await readForm(request, context);
      const device = Number(form.get("device"));
      if (form.get("intent") !== "revoke-device" || !Number.isInteger(device) || device <= 0)
        return json({ error: "errors.badRequest" }, { status: 400 });
      revokeDevice(organizationRealm(managed.db, managed.organization), overview.profile.id, device);
      return redirectWithFlash(`${mount.usersBase(managed)}/${overview.profile.id}/overview`, "person.flash.deviceSignedOut");
    });
}
