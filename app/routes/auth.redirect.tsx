import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { lessonProgress } from "../../db/tenant";
import { homeFor, requireUser } from "~/utils/auth.server";

/**
 * Spec §2: the landing after sign-in, acting as home: each person goes where their role belongs; a
 * learner who has not started anything yet is greeted on /welcome first.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context);
  if (auth.role === "learner" && context.db) {
    const started = context.db.select({ id: lessonProgress.id }).from(lessonProgress).where(eq(lessonProgress.userId, auth.person.id)).limit(1).get();
    if (!started) return redirect("/welcome");
  }
  return redirect(homeFor(auth));
}
