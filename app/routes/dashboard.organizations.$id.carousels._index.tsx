import { Carousels, carouselsAction, carouselsLoader } from "~/screens/organization-carousels";

export const loader = carouselsLoader("dashboard");
export const action = carouselsAction("dashboard");
export default Carousels;
