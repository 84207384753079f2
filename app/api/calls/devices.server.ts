import { z } from "zod";
import type { SignedInViewer } from "~/access/viewer";
import { deviceView as deviceReply, listDevices, revokeDevice } from "~/models/auth/session.server";
import { realmFor } from "~/kernel/auth.server";
import { apiInvalid, apiNotFound } from "~/utils/api.server";
import { paginated } from "~/utils/pagination";
import { call, E, id, isoDate, page, type ApiCall } from "../contract.server";
import { sessionErrors } from "./sign-in.server";

/** One's signed-in devices (browsers and tokens), and signing one out (docs/product.md §7 "Auth"). */

const devicePath = z.object({ id: z.coerce.number().int().positive() });

const deviceView = z.object({
  id,
  kind: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: isoDate,
  last_seen_at: isoDate,
  expires_at: isoDate,
  current: z.boolean(),
});

export const deviceCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/devices",
    tag: "Sign-in",
    summary: "My signed-in devices",
    description: "Browsers and tokens of the caller; `current` marks this one.",
    access: "session",
    reply: page(deviceView),
    errors: [...sessionErrors, E.twoFactorPending, E.organization, E.sessionOnly],
    example: {
      reply: {
        data: [
          {
            id: 3,
            kind: "api",
            user_agent: "LecternApp/2.1",
            ip: "203.0.113.9",
            created_at: "2026-05-04T09:30:00.000Z",
            last_seen_at: "2026-05-04T10:00:00.000Z",
            expires_at: "2026-06-03T09:30:00.000Z",
            current: true,
          },
        ],
        meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
      },
    },
    handler: ({ context, viewer }) => {
      const auth = viewer as SignedInViewer;
      const devices = listDevices(realmFor(context), auth.person.id).map((s) => deviceReply(s, auth.session.id));
      return paginated(devices, devices.length, { page: 1, perPage: Math.max(devices.length, 1) });
    },
  }),
  call({
    method: "DELETE",
    path: "/api/devices/{id}",
    tag: "Sign-in",
    summary: "Sign a device out",
    description: "Its token fails on its very next call. Another person's device is a 404.",
    access: "session",
    reply: z.object({ id, revoked: z.literal(true) }),
    errors: [...sessionErrors, E.twoFactorPending, E.organization, E.sessionOnly, E.notFound, E.invalid],
    example: { reply: { id: 3, revoked: true } },
    // Another person's device is as absent as one that never existed.
    handler: async ({ request, context, params, viewer }) => {
      const parsed = devicePath.safeParse(params);
      if (!parsed.success) return apiInvalid(request, context, parsed.error);
      if (!revokeDevice(realmFor(context), (viewer as SignedInViewer).person.id, parsed.data.id)) return apiNotFound(request, context);
      return { id: parsed.data.id, revoked: true };
    },
  }),
];
