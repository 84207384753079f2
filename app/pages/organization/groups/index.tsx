import type { LoaderFunctionArgs } from "@remix-run/node";
import { Groups, groupsLoader } from "~/screens/groups";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => groupsLoader(areaOf(args.request))(args);
export default Groups;
