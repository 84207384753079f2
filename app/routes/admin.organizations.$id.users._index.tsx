import { UsersList, usersListLoader } from "~/screens/organization-users";

const mount = { area: "admin" as const, usersBase: (m: { base: string }) => `${m.base}/users` };
export const loader = usersListLoader(mount);
export default UsersList;
