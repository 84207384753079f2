import { MyGroups, myGroupsLoader } from "~/screens/group-admin";

export const loader = myGroupsLoader;
export default MyGroups;
