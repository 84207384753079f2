import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { PeopleBulk } from "~/screens/people-bulk";
import { peopleBulkAction, peopleBulkLoader } from "~/screens/people-bulk.server";

// A bulk action on people (issue 50): how many it reaches, what it needs, and the button that starts its job.
export const loader = (args: LoaderFunctionArgs) => peopleBulkLoader(args);
export const action = (args: ActionFunctionArgs) => peopleBulkAction(args);
export default PeopleBulk;
