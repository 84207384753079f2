import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { confirmCode } from "~/models/auth/two-factor.server";
import { personView } from "~/models/user.server";
import { apiError, apiMethodNotAllowed, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiSession , realmFor } from "~/kernel/auth.server";

export const bodySchema = z.object({ code: z.string().trim().regex(/^\d{6}$/, "validation.code") });

/** `POST /api/auth/2fa {code}`: confirms the pending token with the e-mailed code. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const auth = await requireApiSession(request, context, { allowPendingTwoFactor: true });
  const { code } = await parseApiBody(request, context, bodySchema);
  if (auth.session.twoFactorPending) {
    const check = confirmCode(realmFor(context), auth.session.id, code);
    if (check !== "ok") {
      const t = await apiT(request, context);
      return apiError(check === "too_many_attempts" ? 429 : 422, { message: t(`auth.twoFactor.${check}`), code: check });
    }
  }
  return apiOk({ user: personView(realmFor(context), auth.person, { twoFactorPending: false }) });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
