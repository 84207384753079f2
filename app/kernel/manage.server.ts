import type { AppLoadContext } from "@remix-run/node";
import { viewerIn, type SignedInViewer } from "../access/viewer";
import type { Params } from "@remix-run/react";
import type { TenantDb } from "../../db/open";
import { DatabaseUnavailableError } from "../../db/open";
import type { Organization } from "../../db/platform";
import { getOrganization } from "../models/organization.server";
import { requireCapability, requireDashboard, requireSuperAdmin } from "./auth.server";
import type { Capability } from "../utils/capabilities";

/**
 * Management screens exist twice (docs/architecture.md "Pages"): under /admin/organizations/{id}/… for
 * super-admins on the platform host, and under /dashboard/… for an organization's own admins on its
 * host. Each screen is built once and asks this module for the organization it manages, with the guard
 * of its area.
 */
export type Area = "admin" | "dashboard";

export interface Managed {
  area: Area;
  /** Who is asking, looking at this organization (for a super-admin: app/access/viewer.ts `viewerIn`). */
  viewer: SignedInViewer;
  organization: Organization;
  db: TenantDb;
  /** Where this organization's screens live in this area, e.g. `/admin/organizations/3`. */
  base: string;
}

function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

/**
 * The area a request is in: the first segment of its path. The screens of both areas are one module each,
 * mounted under /admin/organizations/:id and /dashboard/organizations/:id (remix.config.js); they ask this
 * which guard and addresses to use.
 */
export function areaOf(request: Request): Area {
  const first = new URL(request.url).pathname.split("/")[1];
  if (first === "admin" || first === "dashboard") return first;
  notFound();
}

/**
 * Runs `work` with the managed organization's database. In the admin area the database is taken from the
 * pool by id for the length of `work` (db/tenant-pool.ts `withTenant`); in the dashboard it is the
 * request's own, and the id in the address must be the host's organization — another organization's
 * dashboard does not exist here.
 */
export async function withManagedOrganization<T>(
  request: Request,
  context: AppLoadContext,
  params: Params,
  { area, capability }: { area: Area; capability: Capability },
  work: (managed: Managed) => Promise<T> | T,
): Promise<T> {
  if (area === "dashboard") {
    // The dashboard is the organization admin's: a group admin's read:user (its groups' members only)
    // must not open the organization-wide screens, even through a data request for one route.
    requireDashboard(request, context);
    const auth = requireCapability(request, context, capability);
    const { organization, db } = context;
    if (!organization || !db) notFound();
    if (params.id !== undefined && params.id !== String(organization.id)) notFound();
    return work({ area, viewer: auth, organization, db, base: `/dashboard/organizations/${organization.id}` });
  }
  const auth = await requireSuperAdmin(request, context);
  const id = Number(params.id);
  const organization = Number.isSafeInteger(id) && id > 0 ? getOrganization(context.platform.db, id) : undefined;
  if (!organization) notFound();
  try {
    return await context.platform.tenants.withTenant(organization.id, (db) =>
      work({
        area,
        viewer: viewerIn(auth, organization, db) as SignedInViewer,
        organization,
        db,
        base: `/admin/organizations/${organization.id}`,
      }),
    );
  } catch (error) {
    // The organization's database cannot be opened: its screens answer 503, the others keep working.
    if (error instanceof DatabaseUnavailableError) throw new Response("Unavailable", { status: 503 });
    throw error;
  }
}
