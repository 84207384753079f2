import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { resetPassword } from "~/models/auth/tokens.server";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/utils/auth-schemas";
import { apiError, apiMethodNotAllowed, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { realmFor } from "~/kernel/auth.server";

export const bodySchema = z
  .object({
    email: z.string().trim().min(1).max(254).email("validation.email"),
    token: z.string().min(1).max(200),
    password: z.string().min(PASSWORD_MIN_LENGTH, "validation.passwordTooShort").max(PASSWORD_MAX_LENGTH, "validation.passwordTooLong"),
    password_confirmation: z.string(),
  })
  .refine((v) => v.password === v.password_confirmation, {
    message: "validation.passwordsDontMatch",
    path: ["password_confirmation"],
  });

/** `POST /api/auth/reset {email, token, password, password_confirmation}`. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const body = await parseApiBody(request, context, bodySchema);
  const t = await apiT(request, context);
  const ok = await resetPassword(realmFor(context), body);
  if (!ok) return apiError(422, { message: t("auth.reset.invalidLink"), code: "invalid_token" });
  return apiOk({ message: t("api.passwordChanged") });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
