import { CreateUser, createUserAction, createUserLoader } from "~/screens/organization-users";

const mount = { area: "admin" as const, usersBase: (m: { base: string }) => `${m.base}/users` };
export const loader = createUserLoader(mount);
export const action = createUserAction(mount);
export default CreateUser;
