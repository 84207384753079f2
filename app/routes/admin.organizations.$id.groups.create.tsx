import { CreateGroup, createGroupAction, createGroupLoader } from "~/screens/groups";

export const loader = createGroupLoader("admin");
export const action = createGroupAction("admin");
export default CreateGroup;
