import type { LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { pathReportCsvLoader } from "~/screens/organization-paths.server";

/** A path assignment's people with each step's state, as CSV (issue 49). */
export const loader = (args: LoaderFunctionArgs) => pathReportCsvLoader(areaOf(args.request))(args);
