import { Groups, groupsLoader } from "~/screens/groups";

export const loader = groupsLoader("dashboard");
export default Groups;
