import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { TokensScreen } from "~/screens/organization-tokens";
import { tokensAction, tokensLoader } from "~/screens/organization-tokens.server";

export const loader = (args: LoaderFunctionArgs) => tokensLoader("admin")(args);
export const action = (args: ActionFunctionArgs) => tokensAction("admin")(args);
export default TokensScreen;
