import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { homeFor, requireUser } from "~/utils/auth.server";

/** Spec §2: the landing after sign-in, acting as home: each person goes where their role belongs. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context);
  return redirect(homeFor(auth));
}
