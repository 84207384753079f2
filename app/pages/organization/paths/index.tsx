import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { pathsAction, pathsLoader } from "~/screens/organization-paths.server";
import { Paths } from "~/screens/organization-paths";

export const loader = (args: LoaderFunctionArgs) => pathsLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => pathsAction(areaOf(args.request))(args);
export default Paths;
