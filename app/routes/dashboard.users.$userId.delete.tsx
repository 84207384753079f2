import { DeleteUser, deleteUserAction, deleteUserLoader } from "~/screens/organization-users";

const mount = { area: "dashboard" as const, usersBase: () => "/dashboard/users" };
export const loader = deleteUserLoader(mount);
export const action = deleteUserAction(mount);
export default DeleteUser;
