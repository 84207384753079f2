import { DeleteGroup, deleteGroupAction, deleteGroupLoader } from "~/screens/groups";

export const loader = deleteGroupLoader("admin");
export const action = deleteGroupAction("admin");
export default DeleteGroup;
