import { CreateUser, createUserAction, createUserLoader } from "~/screens/organization-users";

const mount = { area: "dashboard" as const, usersBase: () => "/dashboard/users" };
export const loader = createUserLoader(mount);
export const action = createUserAction(mount);
export default CreateUser;
