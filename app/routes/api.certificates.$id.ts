import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getCertificate, restoreCertificate, revokeCertificate } from "~/models/certificate.server";
import { certificateCaller, viewFor, visibleCertificate } from "~/screens/certificate-api.server";
import { apiMethodNotAllowed, apiNotFound, apiOk, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

/** `GET /api/certificates/{id}`: one's own certificate (any, with read:certificate-template); another's is 404. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const caller = await certificateCaller(request, context);
  const c = visibleCertificate(caller, params.id);
  return c ? apiOk(viewFor(context, c)) : apiNotFound(request, context);
}

export const updateSchema = z.discriminatedUnion("revoked", [
  z.object({ revoked: z.literal(true), reason: z.string().trim().min(1, "certificates.errors.reason").max(500) }),
  z.object({ revoked: z.literal(false) }),
]);

/** `PUT /api/certificates/{id} {revoked, reason}` (write:certificate-template): revokes or restores. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "PUT") return apiMethodNotAllowed(request, context, ["GET", "PUT"]);
  if (!context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "write:certificate-template" });
  const c = /^\d{1,15}$/.test(params.id ?? "") ? getCertificate(context.db, Number(params.id)) : undefined;
  if (!c) return apiNotFound(request, context);
  const input = await parseApiBody(request, context, updateSchema);
  const updated = input.revoked ? revokeCertificate(context.db, c.id, input.reason) : restoreCertificate(context.db, c.id);
  return apiOk(viewFor(context, updated!));
}
