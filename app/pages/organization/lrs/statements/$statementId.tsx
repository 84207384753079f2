import type { LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { StatementScreen } from "~/screens/lrs-statements";
import { statementLoader } from "~/screens/lrs-statements.server";

export const loader = (args: LoaderFunctionArgs) => statementLoader(areaOf(args.request))(args);
export default StatementScreen;
