import { GroupDetail, groupAction, groupLoader } from "~/screens/group-detail";

export const loader = groupLoader("dashboard");
export const action = groupAction("dashboard");
export default GroupDetail;
