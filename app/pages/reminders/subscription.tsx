import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { z } from "zod";
import { setRemindersOff } from "~/models/reminder-opt-outs.server";
import { requireUser } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { requireOrganization } from "~/utils/tenant.server";
import { formRefusal, readForm } from "~/utils/form-data.server";

/**
 * POST /reminders/subscription {off}: the signed-in person turns their own e-mail reminders and digests off
 * or back on (the panel on /profile/settings; a reminder's one-click link turns them off too:
 * app/pages/reminders/unsubscribe.tsx).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { db } = requireOrganization(context);
  const { person } = await requireUser(request, context);
  const parsed = z.object({ off: z.enum(["true", "false"]) }).safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) throw await formRefusal(context, 400);
  const off = parsed.data.off === "true";
  setRemindersOff(db, person.id, off);
  return redirectWithFlash("/profile/settings", off ? "reminders.flash.off" : "reminders.flash.on");
}

export async function loader({ context }: LoaderFunctionArgs) {
  requireOrganization(context);
  return redirect("/profile/settings");
}
