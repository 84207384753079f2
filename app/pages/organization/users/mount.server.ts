import type { UsersMount } from "~/screens/organization-users";
import { areaOf } from "~/kernel/manage.server";

/**
 * The users screens are mounted three times (remix.config.js): among an organization's screens in /admin and
 * /dashboard, where they live at `{base}/users`, and as the dashboard's own /dashboard/users.
 */
export function usersMount(request: Request): UsersMount {
  const { pathname } = new URL(request.url);
  const own = pathname === "/dashboard/users" || pathname.startsWith("/dashboard/users/");
  return { area: areaOf(request), usersBase: own ? () => "/dashboard/users" : (managed) => `${managed.base}/users` };
}
