import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { sendPasswordReset } from "~/models/auth/mail.server";
import { requestPasswordReset } from "~/models/auth/tokens.server";
import { apiMethodNotAllowed, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { realmFor } from "~/kernel/auth.server";

export const bodySchema = z.object({ email: z.string().trim().min(1).max(254).email("validation.email") });

/** `POST /api/auth/reset/request {email}`: the same answer for known and unknown addresses. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const { email } = await parseApiBody(request, context, bodySchema);
  const realm = realmFor(context);
  const issued = requestPasswordReset(realm, email);
  if (issued) {
    sendPasswordReset(context.platform, realm, issued.person, issued.token).catch((error) =>
      console.error(JSON.stringify({ level: "error", msg: "reset mail failed", error: String(error) })),
    );
  }
  const t = await apiT(request, context);
  return apiOk({ message: t("api.resetRequested") });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
