import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import {
  createOrganizationSchema,
  currentSettings,
  deleteOrganization,
  getOrganization,
  hostConflicts,
  listOrganizations,
  organizationSettingsSchema,
  organizationView as organizationReply,
  publicOrganization,
  searchOrganizations,
  updateOrganization,
} from "~/models/organization.server";
import { provisionOrganization } from "~/models/provision.server";
import { apiError, apiInvalid, apiNotFound, apiT } from "~/utils/api.server";
import { csvResponse, toCsv } from "~/utils/csv.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, deleted, E, id, isoDate, page, type ApiCall } from "../contract.server";

/** Organizations: how apps find one (`/api/resolve`), and the super-admins' calls on the platform host. */
const stamp = "2026-05-04T09:30:00.000Z";
const meta1 = { current_page: 1, per_page: 20, total: 1, last_page: 1 };

export const resolveQuery = z.object({ domain: z.string().trim().min(1).max(253) });
export const organizationBody = z.object({
  name: createOrganizationSchema.shape.name,
  language: createOrganizationSchema.shape.language,
  urlPrefix: createOrganizationSchema.shape.urlPrefix,
  admin_email: createOrganizationSchema.shape.adminEmail,
});
export const organizationSearchQuery = pageSchema.extend({ q: z.string().trim().min(1).max(200) });
/** A PUT names any of the settings (checked with organizationSettingsSchema once merged with the stored ones). */
export const settingsBody = z.record(z.unknown());
const SETTING_ALIASES: Record<string, string> = { two_factor_required: "twoFactorRequired", featured_course: "featuredCourse" };

function find(context: AppLoadContext, raw: string) {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? getOrganization(context.platform.db, n) : undefined;
}

const organizationView = z.object({
  id,
  name: z.string(),
  url: z.string().url(),
  domain: z.string().nullable(),
  urlPrefix: z.string().nullable(),
  customDomain: z.string().nullable(),
  language: z.string(),
  favicon: z.string().nullable(),
  logo: z.string().nullable(),
  login_background: z.string().nullable(),
  footer: z.string().nullable(),
  featured_course: z.number().int().nullable(),
  bcc: z.string().nullable(),
  two_factor_required: z.boolean(),
  created_at: isoDate,
});
const organizationExample = {
  id: 1,
  name: "Acme Academy",
  url: "http://acme.localhost:3000",
  domain: null,
  urlPrefix: "acme",
  customDomain: null,
  language: "en",
  favicon: null,
  logo: null,
  login_background: null,
  footer: null,
  featured_course: null,
  bcc: null,
  two_factor_required: false,
  created_at: stamp,
};

const superAdmin = [
  E.unauthenticated,
  E.twoFactorPending,
  E.organization,
  { status: 403, code: "forbidden", when: "not a super-admin" },
  { status: 404, code: "not_found", when: "no such organization" },
];

export const organizationCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/resolve",
    tag: "Organizations",
    summary: "The organization reached on a host",
    description: "For apps, before anyone signs in: name, language, images and theme.",
    access: "public",
    host: "both",
    query: resolveQuery,
    reply: z.object({
      id,
      name: z.string(),
      language: z.string(),
      logo: z.string().nullable(),
      favicon: z.string().nullable(),
      login_background: z.string().nullable(),
      footer: z.string().nullable(),
      featured_course: z.number().int().nullable(),
      theme: z.unknown(),
      domain: z.string().nullable(),
      urlPrefix: z.string().nullable(),
      customDomain: z.string().nullable(),
    }),
    errors: [E.invalid, E.notFound],
    example: {
      query: { domain: "acme.localhost" },
      reply: {
        id: 1,
        name: "Acme Academy",
        language: "en",
        logo: null,
        favicon: null,
        login_background: null,
        footer: null,
        featured_course: null,
        theme: "light",
        domain: null,
        urlPrefix: "acme",
        customDomain: null,
      },
    },
    // Tenancy resolved this request's own host a moment ago; the registry is as current as that.
    handler: ({ request, context, query }) => {
      const { organization } = context.platform.organizations.lookup(query.domain);
      if (!organization) return apiNotFound(request, context);
      return publicOrganization(organization, (v) => context.platform.brandingUrl(organization, v, { absolute: true }));
    },
  }),
  call({
    method: "GET",
    path: "/api/organizations",
    tag: "Organizations",
    summary: "Every organization",
    description: "Super-admins on the platform host.",
    access: "super-admin",
    host: "platform",
    query: pageSchema,
    reply: page(organizationView),
    errors: [...superAdmin, E.invalid],
    example: { reply: { data: [organizationExample], meta: meta1 } },
    handler: ({ context, query }) => {
      const all = listOrganizations(context.platform.db);
      const p = { page: query.page, perPage: query.per_page };
      return paginated(
        all.slice((p.page - 1) * p.perPage, p.page * p.perPage).map((o) => organizationReply(o, context.platform.originFor(o))),
        all.length,
        p,
      );
    },
  }),
  call({
    method: "POST",
    path: "/api/organizations",
    tag: "Organizations",
    summary: "Create an organization",
    description: "Provisions its folder and database; with `admin_email` its first admin is invited.",
    access: "super-admin",
    host: "platform",
    body: organizationBody,
    reply: organizationView,
    status: 201,
    errors: [...superAdmin, E.invalid, E.invalidBody],
    example: {
      body: { name: "Acme Academy", language: "en", urlPrefix: "acme", admin_email: "admin@acme.example" },
      reply: organizationExample,
    },
    handler: async ({ request, context, body }) => {
      const result = await provisionOrganization(context.platform, { ...body, adminEmail: body.admin_email });
      if (!result.ok) {
        const t = await apiT(request, context);
        const fields = Object.fromEntries(Object.entries(result.fields).map(([k, v]) => [k, v.map((m) => t(m))]));
        return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
      }
      return organizationReply(result.organization, context.platform.originFor(result.organization));
    },
  }),
  call({
    method: "GET",
    path: "/api/organizations/search",
    tag: "Organizations",
    summary: "Search organizations",
    description: "By name or host.",
    access: "super-admin",
    host: "platform",
    query: organizationSearchQuery,
    reply: page(organizationView),
    errors: [...superAdmin, E.invalid],
    example: { query: { q: "acme" }, reply: { data: [organizationExample], meta: meta1 } },
    handler: ({ context, query }) => {
      const all = searchOrganizations(context.platform.db, query.q);
      const p = { page: query.page, perPage: query.per_page };
      return paginated(
        all.slice((p.page - 1) * p.perPage, p.page * p.perPage).map((o) => organizationReply(o, context.platform.originFor(o))),
        all.length,
        p,
      );
    },
  }),
  call({
    method: "GET",
    path: "/api/organizations/export",
    tag: "Organizations",
    summary: "Every organization, as CSV",
    access: "super-admin",
    host: "platform",
    reply: { file: "text/csv" },
    errors: superAdmin,
    example: {},
    // Formula-looking cells neutralised (app/utils/csv.server.ts).
    handler: ({ context }) => {
      const rows = listOrganizations(context.platform.db).map((o) => [
        o.id,
        o.name,
        context.platform.originFor(o),
        o.urlPrefix,
        o.domain,
        o.customDomain,
        o.language,
        o.createdAt.toISOString(),
      ]);
      return csvResponse(
        "organizations.csv",
        toCsv(["id", "name", "url", "urlPrefix", "domain", "customDomain", "language", "created_at"], rows),
      );
    },
  }),
  call({
    method: "GET",
    path: "/api/organizations/{id}",
    tag: "Organizations",
    summary: "One organization",
    access: "super-admin",
    host: "platform",
    reply: organizationView,
    errors: superAdmin,
    example: { reply: organizationExample },
    handler: ({ request, context, params }) => {
      const organization = find(context, params.id);
      return organization ? organizationReply(organization, context.platform.originFor(organization)) : apiNotFound(request, context);
    },
  }),
  call({
    method: "PUT",
    path: "/api/organizations/{id}",
    tag: "Organizations",
    summary: "Change an organization's settings",
    description:
      "Changes what it names and keeps the rest; accepts the names GET answers with (`two_factor_required`, `featured_course`). The merged settings are checked as on the settings screen.",
    access: "super-admin",
    host: "platform",
    body: settingsBody,
    validates: [organizationSettingsSchema],
    reply: organizationView,
    errors: [...superAdmin, E.invalid, E.invalidBody],
    example: { body: { name: "Acme Academy", two_factor_required: true }, reply: { ...organizationExample, two_factor_required: true } },
    // Changes what it names and keeps the rest: settings as stored, overlaid with the body (which may use the
    // names GET answers with, such as two_factor_required and featured_course).
    handler: async ({ request, context, params, body: raw }) => {
      const organization = find(context, params.id);
      if (!organization) return apiNotFound(request, context);
      const given = Object.fromEntries(Object.entries(raw).map(([k, v]) => [SETTING_ALIASES[k] ?? k, v]));
      const parsed = organizationSettingsSchema.safeParse({ ...currentSettings(organization), ...given });
      if (!parsed.success) return apiInvalid(request, context, parsed.error);
      const conflicts = hostConflicts(context.platform.db, context.platform.platformDomain, parsed.data, organization.id);
      if (Object.keys(conflicts).length) {
        const t = await apiT(request, context);
        const fields = Object.fromEntries(Object.entries(conflicts).map(([k, v]) => [k, v.map((m) => t(m))]));
        return apiError(422, { message: t("api.invalid"), code: "invalid", fields });
      }
      const updated = updateOrganization(context.platform.db, organization.id, parsed.data);
      context.platform.organizations.invalidate();
      return organizationReply(updated!, context.platform.originFor(updated!));
    },
  }),
  call({
    method: "DELETE",
    path: "/api/organizations/{id}",
    tag: "Organizations",
    summary: "Delete an organization",
    description: "Its folder is moved aside, not destroyed.",
    access: "super-admin",
    host: "platform",
    reply: deleted,
    errors: superAdmin,
    example: { reply: { id: 1, deleted: true } },
    // The folder is moved aside, not destroyed.
    handler: ({ request, context, params }) => {
      const organization = find(context, params.id);
      if (!organization) return apiNotFound(request, context);
      context.platform.tenants.discard(organization.id);
      deleteOrganization(context.platform.db, { dataDir: context.platform.dataDir }, organization.id);
      context.platform.organizations.invalidate();
      return { id: organization.id, deleted: true };
    },
  }),
];
