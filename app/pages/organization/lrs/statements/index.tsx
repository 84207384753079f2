import type { LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { StatementsScreen } from "~/screens/lrs-statements";
import { statementsLoader } from "~/screens/lrs-statements.server";

export const loader = (args: LoaderFunctionArgs) => statementsLoader(areaOf(args.request))(args);
export default StatementsScreen;
