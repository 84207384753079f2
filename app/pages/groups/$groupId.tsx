import { MyGroup, myGroupAction, myGroupLoader } from "~/screens/group-admin";

export const loader = myGroupLoader;
export const action = myGroupAction;
export default MyGroup;
