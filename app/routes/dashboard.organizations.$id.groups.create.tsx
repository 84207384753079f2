import { CreateGroup, createGroupAction, createGroupLoader } from "~/screens/groups";

export const loader = createGroupLoader("dashboard");
export const action = createGroupAction("dashboard");
export default CreateGroup;
