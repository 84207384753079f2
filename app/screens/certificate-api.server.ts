import type { AppLoadContext } from "@remix-run/node";
import { may } from "~/access/rules";
import type { Viewer } from "~/access/viewer";
import { z } from "zod";
import { certificateView, getCertificate, listCertificates, listOwnCertificates } from "~/models/certificate.server";
import { verificationUrl } from "~/models/certificate-render.server";
import { apiNotFound } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { pageSchema } from "~/utils/pagination";

/**
 * Shared by the /api certificate calls: who asks, and which certificates they may see. A learner sees
 * only their own (another's id is 404); a caller with read:certificate-template sees the organization's
 * when it asks with `scope=all` (lists) or by id.
 */
export async function certificateCaller(request: Request, context: AppLoadContext) {
  if (!context.organization || !context.db) throw await apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "learn:course" });
  return { auth, db: context.db, organization: context.organization, admin: may(auth, "read:certificate-template") };
}

export function viewFor(context: AppLoadContext, c: Parameters<typeof certificateView>[0]) {
  return certificateView(c, verificationUrl({ origin: context.platform.originFor(context.organization!) }, c.publicId), {
    timeZone: context.organization!.timeZone,
  });
}

/** The certificate the caller may see by id, or null. */
export function visibleCertificate(
  caller: { auth: Viewer; db: NonNullable<AppLoadContext["db"]>; admin: boolean },
  id: string | undefined,
) {
  if (!/^\d{1,15}$/.test(id ?? "")) return null;
  const c = getCertificate(caller.db, Number(id));
  if (!c) return null;
  if (caller.admin || (caller.auth.person && c.userId === caller.auth.person.id)) return c;
  return null;
}

export const listQuery = pageSchema.extend({ scope: z.enum(["own", "all"]).default("own"), q: z.string().trim().max(200).optional() });

export function certificatesFor(
  caller: { auth: Viewer; db: NonNullable<AppLoadContext["db"]>; admin: boolean },
  query: z.infer<typeof listQuery>,
) {
  const page = { page: query.page, perPage: query.per_page };
  if (query.scope === "all" && caller.admin) return { ...listCertificates(caller.db, page, { q: query.q }), page };
  if (!caller.auth.person) return { items: [], total: 0, page };
  const q = query.q?.toLowerCase();
  const own = listOwnCertificates(caller.db, caller.auth.person.id).filter(
    (c) => !q || c.courseTitle.toLowerCase().includes(q) || c.learnerName.toLowerCase().includes(q) || c.publicId.toLowerCase().includes(q),
  );
  return { items: own.slice((page.page - 1) * page.perPage, page.page * page.perPage), total: own.length, page };
}
