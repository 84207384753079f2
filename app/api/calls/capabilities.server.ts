import { z } from "zod";
import { may } from "~/access/rules";
import { apiT } from "~/utils/api.server";
import { CAPABILITIES, CAPABILITY_GROUPS } from "~/utils/capabilities";
import { paginated } from "~/utils/pagination";
import { call, E, page, type ApiCall } from "../contract.server";

/** Every capability with whether the caller holds it, and the groups they are shown in (docs/product.md §7 "API"). */
export const capabilityCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/api/capabilities",
    tag: "API tokens",
    summary: "Every capability, and whether the caller holds it",
    access: "signed-in",
    reply: page(z.object({ id: z.enum(CAPABILITIES), group: z.string().nullable(), label: z.string(), granted: z.boolean() })),
    errors: [E.unauthenticated, E.twoFactorPending, E.organization],
    example: {
      reply: {
        data: [{ id: "read:course", group: "courses", label: "See courses", granted: true }],
        meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
      },
    },
    // A token can be given only those the caller holds.
    handler: async ({ request, context, viewer }) => {
      const t = await apiT(request, context);
      const groupOf = new Map(CAPABILITY_GROUPS.flatMap((g) => g.capabilities.map((c) => [c, g.id] as const)));
      const items = CAPABILITIES.map((id) => ({
        id,
        group: groupOf.get(id) ?? null,
        label: t(`capabilities.${id}`),
        granted: may(viewer, id),
      }));
      return paginated(items, items.length, { page: 1, perPage: items.length });
    },
  }),
  call({
    method: "GET",
    path: "/api/api/capabilities/groups",
    tag: "API tokens",
    summary: "Capabilities grouped for display",
    access: "signed-in",
    reply: page(
      z.object({ id: z.string(), name: z.string(), capabilities: z.array(z.object({ id: z.enum(CAPABILITIES), label: z.string() })) }),
    ),
    errors: [E.unauthenticated, E.twoFactorPending, E.organization],
    example: {
      reply: {
        data: [{ id: "courses", name: "Courses", capabilities: [{ id: "read:course", label: "See courses" }] }],
        meta: { current_page: 1, per_page: 1, total: 1, last_page: 1 },
      },
    },
    handler: async ({ request, context }) => {
      const t = await apiT(request, context);
      const items = CAPABILITY_GROUPS.map((g) => ({
        id: g.id,
        name: t(`capabilityGroups.${g.id}`),
        capabilities: g.capabilities.map((id) => ({ id, label: t(`capabilities.${id}`) })),
      }));
      return paginated(items, items.length, { page: 1, perPage: items.length });
    },
  }),
];
