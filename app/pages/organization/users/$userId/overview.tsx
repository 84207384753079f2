import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { PersonPage } from "~/screens/person-page";
import { personAction, personLoader } from "~/screens/person-page.server";
import { usersMount } from "../mount.server";

// A person, whole (issue 50): profile, groups, learning, assignments, results, devices and the audit about them.
export const loader = (args: LoaderFunctionArgs) => personLoader(usersMount(args.request))(args);
export const action = (args: ActionFunctionArgs) => personAction(usersMount(args.request))(args);
export default PersonPage;
