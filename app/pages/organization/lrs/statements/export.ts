import type { LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { statementsCsvLoader } from "~/screens/lrs-statements.server";

/** The statements the screen's filters select, as CSV (read:xapi). */
export const loader = (args: LoaderFunctionArgs) => statementsCsvLoader(areaOf(args.request))(args);
