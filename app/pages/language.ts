import { type ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { LANGUAGES } from "~/utils/i18n";
import { languageCookie } from "~/utils/i18n.server";
import { redirect, safeRedirectPath } from "~/utils/redirect";
import { formRefusal, readForm } from "~/utils/form-data.server";

const schema = z.object({ language: z.enum(LANGUAGES), redirectTo: z.string().optional() });

/** POST /language: remembers the interface language on this device. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = schema.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!form.success) throw await formRefusal(context, 400);
  return redirect(safeRedirectPath(form.data.redirectTo), {
    headers: { "Set-Cookie": await languageCookie.serialize(form.data.language) },
  });
}

export function loader() {
  return redirect("/");
}
