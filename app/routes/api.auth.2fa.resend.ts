import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { sendTwoFactorCode } from "~/models/auth/mail.server";
import { issueCode } from "~/models/auth/two-factor.server";
import { apiError, apiMethodNotAllowed, apiOk, apiT } from "~/utils/api.server";
import { requireApiSession , realmFor } from "~/kernel/auth.server";

/** `POST /api/auth/2fa/resend`: a new code; the previous one stops working. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const auth = await requireApiSession(request, context, { allowPendingTwoFactor: true });
  const t = await apiT(request, context);
  if (!auth.session.twoFactorPending) return apiOk({ sent: false });
  const issued = issueCode(realmFor(context), auth.session);
  if ("error" in issued) return apiError(429, { message: t(`auth.twoFactor.${issued.error}`), code: issued.error });
  await sendTwoFactorCode(context.platform, realmFor(context), auth.person, issued.code);
  return apiOk({ sent: true, message: t("api.codeSent") });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
