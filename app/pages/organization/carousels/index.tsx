import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Carousels, carouselsAction, carouselsLoader } from "~/screens/organization-carousels";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => carouselsLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => carouselsAction(areaOf(args.request))(args);
export default Carousels;
