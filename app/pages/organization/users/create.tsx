import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CreateUser, createUserAction, createUserLoader } from "~/screens/organization-users";
import { usersMount } from "./mount.server";

export const loader = (args: LoaderFunctionArgs) => createUserLoader(usersMount(args.request))(args);
export const action = (args: ActionFunctionArgs) => createUserAction(usersMount(args.request))(args);
export default CreateUser;
