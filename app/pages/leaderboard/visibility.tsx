import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { z } from "zod";
import { setHidden } from "~/models/leaderboard-admin.server";
import { requireUser } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";
import { formRefusal, readForm } from "~/utils/form-data.server";

/** POST /leaderboard/visibility {hidden}: the signed-in learner's own opt-out of public ranking. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { db } = requireOrganization(context);
  const { person } = await requireUser(request, context);
  const parsed = z.object({ hidden: z.enum(["true", "false"]) }).safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) throw await formRefusal(context, 400);
  setHidden(db, person.id, parsed.data.hidden === "true");
  return redirect("/profile/settings");
}

export async function loader({ context }: LoaderFunctionArgs) {
  requireOrganization(context);
  return redirect("/profile/settings");
}
