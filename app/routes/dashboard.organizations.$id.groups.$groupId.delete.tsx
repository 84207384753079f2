import { DeleteGroup, deleteGroupAction, deleteGroupLoader } from "~/screens/groups";

export const loader = deleteGroupLoader("dashboard");
export const action = deleteGroupAction("dashboard");
export default DeleteGroup;
