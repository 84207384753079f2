import ssoStyles from "~/styles/sso.css";
import { SsoMethods, ssoAction, ssoLoader } from "~/screens/organization-sso";

export const links = () => [{ rel: "stylesheet", href: ssoStyles }];
export const loader = ssoLoader("admin");
export const action = ssoAction("admin");
export default SsoMethods;
