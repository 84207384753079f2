import { type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { themeCookie } from "~/utils/preferences.server";
import { redirect, safeRedirectPath } from "~/utils/redirect";
import { THEMES } from "~/utils/theme";
import { formRefusal, readForm } from "~/utils/form-data.server";

const schema = z.object({ theme: z.enum(THEMES), redirectTo: z.string().optional() });

/** POST /theme: remembers the theme on this device and goes back to the page it came from. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = schema.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!form.success) throw await formRefusal(context, 400);
  return redirect(safeRedirectPath(form.data.redirectTo), {
    headers: { "Set-Cookie": await themeCookie.serialize(form.data.theme) },
  });
}

export function loader() {
  return redirect("/");
}
