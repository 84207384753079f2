import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { pathAction, pathLoader } from "~/screens/organization-paths.server";
import { EditPath } from "~/screens/organization-paths";
import pathStyles from "~/styles/paths.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pathStyles }];
export const loader = (args: LoaderFunctionArgs) => pathLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => pathAction(areaOf(args.request))(args);
export default EditPath;
