import { UsersList, usersListLoader } from "~/screens/organization-users";

const mount = { area: "dashboard" as const, usersBase: () => "/dashboard/users" };
export const loader = usersListLoader(mount);
export default UsersList;
