import { Carousels, carouselsAction, carouselsLoader } from "~/screens/organization-carousels";

export const loader = carouselsLoader("admin");
export const action = carouselsAction("admin");
export default Carousels;
