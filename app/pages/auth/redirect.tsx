import { type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { hasStartedLearning } from "~/models/learning.server";
import { homeFor, requireUser } from "~/kernel/auth.server";

/**
 * docs/product.md §2: the landing after sign-in, acting as home: each person goes where their role belongs; a
 * learner who has not started anything yet is greeted on /welcome first.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context);
  if (auth.role === "learner" && context.db) {
    if (!hasStartedLearning(context.db, auth.person.id)) return redirect("/welcome");
  }
  return redirect(homeFor(auth));
}
