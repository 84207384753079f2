import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditUser, editUserAction, editUserLoader } from "~/screens/organization-users";
import { usersMount } from "../mount.server";

export const loader = (args: LoaderFunctionArgs) => editUserLoader(usersMount(args.request))(args);
export const action = (args: ActionFunctionArgs) => editUserAction(usersMount(args.request))(args);
export default EditUser;
