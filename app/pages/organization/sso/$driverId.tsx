import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import ssoStyles from "~/styles/sso.css";
import { SsoDriver, ssoDriverAction, ssoDriverLoader } from "~/screens/organization-sso";
import { areaOf } from "~/kernel/manage.server";

export const links = () => [{ rel: "stylesheet", href: ssoStyles }];
export const loader = (args: LoaderFunctionArgs) => ssoDriverLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => ssoDriverAction(areaOf(args.request))(args);
export default SsoDriver;
