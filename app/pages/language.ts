import { type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { LANGUAGES } from "~/utils/i18n";
import { languageCookie } from "~/utils/i18n.server";
import { redirect, safeRedirectPath } from "~/utils/redirect";

const schema = z.object({ language: z.enum(LANGUAGES), redirectTo: z.string().optional() });

/** POST /language: remembers the interface language on this device. */
export async function action({ request }: ActionFunctionArgs) {
  const form = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) throw new Response("Bad Request", { status: 400 });
  return redirect(safeRedirectPath(form.data.redirectTo), {
    headers: { "Set-Cookie": await languageCookie.serialize(form.data.language) },
  });
}

export function loader() {
  return redirect("/");
}
