import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Categories, categoriesAction, categoriesLoader } from "~/screens/organization-categories";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => categoriesLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => categoriesAction(areaOf(args.request))(args);
export default Categories;
