import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { SettingsScreen, settingsAction, settingsLoader } from "~/screens/organization-settings";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => settingsLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => settingsAction(areaOf(args.request))(args);
export default SettingsScreen;
