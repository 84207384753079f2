import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { PathReport } from "~/components/paths/path-report";
import { areaOf } from "~/kernel/manage.server";
import { pathReportLoader } from "~/screens/organization-paths.server";
import pathStyles from "~/styles/paths.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pathStyles }];
export const loader = (args: LoaderFunctionArgs) => pathReportLoader(areaOf(args.request))(args);
export default PathReport;
