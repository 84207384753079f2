import ssoStyles from "~/styles/sso.css";
import { SsoDriver, ssoDriverAction, ssoDriverLoader } from "~/screens/organization-sso";

export const links = () => [{ rel: "stylesheet", href: ssoStyles }];
export const loader = ssoDriverLoader("dashboard");
export const action = ssoDriverAction("dashboard");
export default SsoDriver;
