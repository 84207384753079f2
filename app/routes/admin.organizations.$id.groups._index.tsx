import { Groups, groupsLoader } from "~/screens/groups";

export const loader = groupsLoader("admin");
export default Groups;
