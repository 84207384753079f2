/**
 * Capabilities (docs/decisions/008-permissions.md): typed `${action}:${entity}` strings. A role is a set
 * of them; an API token holds a subset of its owner's. Shared by server and browser (to hide what a
 * person may not use); the server checks every loader, action and /api call.
 */
export const CAPABILITIES = [
  "learn:course",
  "read:course",
  "write:course",
  "read:category",
  "write:category",
  "read:carousel",
  "write:carousel",
  "read:file",
  "write:file",
  "read:quiz",
  "write:quiz",
  "read:certificate-template",
  "write:certificate-template",
  "read:leaderboard",
  "write:leaderboard",
  "read:user",
  "write:user",
  "read:group",
  "write:group",
  "read:analytics",
  "read:organization",
  "write:organization",
  "manage:api-token",
  "read:xapi",
  "manage:xapi",
] as const;

export type Capability = (typeof CAPABILITIES)[number];

export function isCapability(value: unknown): value is Capability {
  return typeof value === "string" && (CAPABILITIES as readonly string[]).includes(value);
}

/** For display: capabilities grouped the way an admin thinks of them (GET /api/api/capabilities/groups). */
export const CAPABILITY_GROUPS: ReadonlyArray<{ id: string; capabilities: readonly Capability[] }> = [
  { id: "learning", capabilities: ["learn:course"] },
  {
    id: "content",
    capabilities: [
      "read:course",
      "write:course",
      "read:category",
      "write:category",
      "read:carousel",
      "write:carousel",
      "read:file",
      "write:file",
    ],
  },
  {
    id: "assessment",
    capabilities: [
      "read:quiz",
      "write:quiz",
      "read:certificate-template",
      "write:certificate-template",
      "read:leaderboard",
      "write:leaderboard",
    ],
  },
  { id: "people", capabilities: ["read:user", "write:user", "read:group", "write:group"] },
  { id: "insight", capabilities: ["read:analytics", "read:xapi"] },
  { id: "organization", capabilities: ["read:organization", "write:organization", "manage:api-token", "manage:xapi"] },
];

export const ROLES = ["learner", "group_admin", "admin", "super_admin"] as const;
export type Role = (typeof ROLES)[number];

const LEARNER: readonly Capability[] = ["learn:course", "read:course", "read:category", "read:carousel", "read:leaderboard"];

/**
 * What each role may do (docs/product.md §6). A group admin's extra capabilities reach only the groups it administers
 * and their members: the models scope them, the capability only opens the door.
 */
export const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  learner: LEARNER,
  group_admin: [...LEARNER, "read:group", "write:group", "read:user", "read:analytics"],
  admin: CAPABILITIES,
  super_admin: CAPABILITIES,
};

export function capabilitiesOf(role: Role | null | undefined): ReadonlySet<Capability> {
  return new Set(role ? ROLE_CAPABILITIES[role] : []);
}

/** A role's rank, to refuse granting more than one holds. */
export const ROLE_RANK: Record<Role, number> = { learner: 0, group_admin: 1, admin: 2, super_admin: 3 };

/**
 * Whether someone may give a person `role` (null: no role here, which only takes away). Never a role ranked
 * above their own, and never one above a learner's without holding every capability it brings: an API token
 * an admin limited to `write:user` may add learners (the point of such a token), but cannot make an admin,
 * who could then do everything the token may not.
 */
export function mayGrant(holder: { role: Role | null; capabilities: ReadonlySet<Capability> }, role: Role | null) {
  if (role === null) return true;
  if (holder.role === null || ROLE_RANK[role] > ROLE_RANK[holder.role]) return false;
  return role === "learner" || ROLE_CAPABILITIES[role].every((c) => holder.capabilities.has(c));
}
