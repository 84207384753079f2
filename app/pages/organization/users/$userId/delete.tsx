import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DeleteUser, deleteUserAction, deleteUserLoader } from "~/screens/organization-users";
import { usersMount } from "../mount.server";

export const loader = (args: LoaderFunctionArgs) => deleteUserLoader(usersMount(args.request))(args);
export const action = (args: ActionFunctionArgs) => deleteUserAction(usersMount(args.request))(args);
export default DeleteUser;
