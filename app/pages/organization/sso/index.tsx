import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import ssoStyles from "~/styles/sso.css";
import { SsoMethods, ssoAction, ssoLoader } from "~/screens/organization-sso";
import { areaOf } from "~/kernel/manage.server";

export const links = () => [{ rel: "stylesheet", href: ssoStyles }];
export const loader = (args: LoaderFunctionArgs) => ssoLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => ssoAction(areaOf(args.request))(args);
export default SsoMethods;
