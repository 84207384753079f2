import type { LoaderFunctionArgs } from "@remix-run/node";
import { Placeholder, placeholderLoader } from "~/screens/organization-placeholder";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => placeholderLoader(areaOf(args.request))(args);
export default Placeholder;
