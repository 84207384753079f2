import { DeleteUser, deleteUserAction, deleteUserLoader } from "~/screens/organization-users";

const mount = { area: "admin" as const, usersBase: (m: { base: string }) => `${m.base}/users` };
export const loader = deleteUserLoader(mount);
export const action = deleteUserAction(mount);
export default DeleteUser;
