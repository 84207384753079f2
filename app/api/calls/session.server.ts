import { z } from "zod";
import type { SignedInViewer } from "~/access/viewer";
import { refreshSession, revokeSession, SESSION_LIFETIME_SECONDS } from "~/models/auth/session.server";
import { personView as personReply } from "~/models/user.server";
import { realmFor } from "~/kernel/auth.server";
import { apiError, apiNotFound, apiT } from "~/utils/api.server";
import { CAPABILITIES } from "~/utils/capabilities";
import { call, E, type ApiCall } from "../contract.server";
import { personExample, personView, sessionErrors, tokenExample } from "./sign-in.server";

/** The calling token or session: signing it out, who it belongs to, and swapping it for a new one (docs/product.md §7 "Auth"). */
export const sessionCalls: ApiCall[] = [
  call({
    method: "POST",
    path: "/api/auth/logout",
    tag: "Sign-in",
    summary: "Sign out the calling token",
    access: "session",
    allowPendingTwoFactor: true,
    reply: z.object({ logged_out: z.literal(true) }),
    errors: [...sessionErrors, E.sessionOnly],
    example: { reply: { logged_out: true } },
    handler: ({ context, viewer }) => {
      revokeSession(realmFor(context), (viewer as SignedInViewer).session.id);
      return { logged_out: true };
    },
  }),
  ...(["GET", "POST"] as const).map(
    (method): ApiCall =>
      call({
        method,
        path: "/api/auth/user",
        tag: "Sign-in",
        summary: "Who am I",
        description: "The person the token belongs to, with the role and capabilities held here.",
        access: "signed-in",
        host: "both",
        reply: personView.extend({ capabilities: z.array(z.enum(CAPABILITIES)) }),
        errors: [...sessionErrors, E.twoFactorPending, E.organization, E.notFound],
        example: { reply: { ...personExample, capabilities: ["learn:course", "read:course"] } },
        // An organization's own token (made by a super-admin) and a super-admin's platform token have no person here.
        handler: async ({ request, context, viewer }) => {
          if (!viewer.person) return apiNotFound(request, context);
          return {
            ...personReply(realmFor(context), viewer.person, { twoFactorPending: viewer.session?.twoFactorPending ?? false }),
            type: viewer.role,
            capabilities: [...viewer.capabilities].sort(),
          };
        },
      }),
  ),
  call({
    method: "POST",
    path: "/api/auth/refresh",
    tag: "Sign-in",
    summary: "Swap the token for a new one",
    description: "The new token lasts another 30 days; the old one is revoked at once. Browser sessions cannot be refreshed here (405).",
    access: "session",
    reply: z.object({ token: z.string(), token_type: z.literal("Bearer"), expires_in: z.number().int() }),
    errors: [...sessionErrors, E.twoFactorPending, E.sessionOnly, E.method],
    example: { reply: { token: tokenExample, token_type: "Bearer", expires_in: 2592000 } },
    handler: async ({ request, context, viewer }) => {
      // A browser's cookie session is refreshed by signing in; handing its token out as JSON would undo HttpOnly.
      if (viewer.via !== "bearer") {
        const t = await apiT(request, context);
        return apiError(405, { message: t("api.methodNotAllowed"), code: "method_not_allowed" }, { Allow: "POST" });
      }
      const { token } = refreshSession(realmFor(context), (viewer as SignedInViewer).session);
      return { token, token_type: "Bearer", expires_in: SESSION_LIFETIME_SECONDS };
    },
  }),
];
