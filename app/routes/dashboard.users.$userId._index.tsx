import { EditUser, editUserAction, editUserLoader } from "~/screens/organization-users";

const mount = { area: "dashboard" as const, usersBase: () => "/dashboard/users" };
export const loader = editUserLoader(mount);
export const action = editUserAction(mount);
export default EditUser;
