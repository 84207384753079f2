import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { LrsScreen } from "~/screens/organization-lrs";
import { lrsAction, lrsLoader } from "~/screens/organization-lrs.server";

export const loader = (args: LoaderFunctionArgs) => lrsLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => lrsAction(areaOf(args.request))(args);
export default LrsScreen;
