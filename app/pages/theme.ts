import { type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { themeCookie } from "~/utils/preferences.server";
import { redirect, safeRedirectPath } from "~/utils/redirect";
import { THEMES } from "~/utils/theme";

const schema = z.object({ theme: z.enum(THEMES), redirectTo: z.string().optional() });

/** POST /theme: remembers the theme on this device and goes back to the page it came from. */
export async function action({ request }: ActionFunctionArgs) {
  const form = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) throw new Response("Bad Request", { status: 400 });
  return redirect(safeRedirectPath(form.data.redirectTo), {
    headers: { "Set-Cookie": await themeCookie.serialize(form.data.theme) },
  });
}

export function loader() {
  return redirect("/");
}
