import { GroupDetail, groupAction, groupLoader } from "~/screens/group-detail";

export const loader = groupLoader("admin");
export const action = groupAction("admin");
export default GroupDetail;
