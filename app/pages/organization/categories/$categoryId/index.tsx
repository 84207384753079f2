import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditCategory, categoryAction, categoryLoader } from "~/screens/organization-categories";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => categoryLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => categoryAction(areaOf(args.request))(args);
export default EditCategory;
