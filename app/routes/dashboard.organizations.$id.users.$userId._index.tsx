import { EditUser, editUserAction, editUserLoader } from "~/screens/organization-users";

const mount = { area: "dashboard" as const, usersBase: (m: { base: string }) => `${m.base}/users` };
export const loader = editUserLoader(mount);
export const action = editUserAction(mount);
export default EditUser;
