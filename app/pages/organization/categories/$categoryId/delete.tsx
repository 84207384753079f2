import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DeleteCategory, deleteCategoryAction, deleteCategoryLoader } from "~/screens/organization-categories";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => deleteCategoryLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => deleteCategoryAction(areaOf(args.request))(args);
export default DeleteCategory;
