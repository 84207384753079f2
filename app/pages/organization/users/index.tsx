import type { LoaderFunctionArgs } from "@remix-run/node";
import { UsersList, usersListLoader } from "~/screens/organization-users";
import { usersMount } from "./mount.server";

export const loader = (args: LoaderFunctionArgs) => usersListLoader(usersMount(args.request))(args);
export default UsersList;
