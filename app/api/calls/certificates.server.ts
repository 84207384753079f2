import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { pageBox } from "~/models/certificate-html.server";
import { renderPreviewPng } from "~/models/certificate-render.server";
import { getCertificate, restoreCertificate, revokeCertificate } from "~/models/certificate.server";
import { getTemplate } from "~/models/certificate-templates.server";
import { previewQuerySchema, templateResource } from "~/models/certificate-template-resource.server";
import { certificateCaller, certificatesFor, listQuery, viewFor, visibleCertificate } from "~/screens/certificate-api.server";
import { certificatePdf } from "~/screens/certificate-pdf.server";
import { apiError, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import { paginated } from "~/utils/pagination";
import { languageFor } from "~/utils/preferences.server";
import { call, E, guarded, id, isoDate, page, signedUrl, type ApiCall } from "../contract.server";
import { resourceCalls } from "../resource.server";

/** Certificates and their templates (docs/product.md §7 "certificates", docs/decisions/015-certificates.md). */
const nullableId = id.nullable();

const templateView = z.object({
  id,
  name: z.string(),
  is_default: z.boolean(),
  layout: z.object({
    page_size: z.string(),
    orientation: z.string(),
    background_file_id: nullableId,
    show_logo: z.boolean(),
    show_qr: z.boolean(),
    blocks: z.array(z.object({}).passthrough()),
  }),
  course_ids: z.array(id),
  created_at: isoDate,
  updated_at: isoDate,
});

const stamp = { created_at: "2026-05-04T09:30:00.000Z", updated_at: "2026-05-04T09:30:00.000Z" };

const meta1 = { current_page: 1, per_page: 20, total: 1, last_page: 1 };
const admin = guarded(E.invalid, E.invalidBody);

const certificateOf = (db: NonNullable<AppLoadContext["db"]>, raw: string) =>
  /^\d{1,15}$/.test(raw) ? getCertificate(db, Number(raw)) : undefined;

/** A page of the certificates the caller may see (their own, or the organization's with `scope=all`), as replies. */
async function certificatePage(request: Request, context: AppLoadContext, query: Parameters<typeof certificatesFor>[1]) {
  const { items, total, page } = certificatesFor(await certificateCaller(request, context), query);
  return paginated(
    items.map((c) => viewFor(context, c)),
    total,
    page,
  );
}

export const certificateSearchQuery = listQuery.extend({ q: z.string().trim().min(1).max(200) });
export const revokeBody = z.discriminatedUnion("revoked", [
  z.object({ revoked: z.literal(true), reason: z.string().trim().min(1, "certificates.errors.reason").max(500) }),
  z.object({ revoked: z.literal(false) }),
]);

const certificateView = z.object({
  id,
  certificate_id: z.string(),
  user_id: id,
  course_id: id.nullable(),
  // A learning path's certificate (issue 49): the path's id (its title is `course_title`); null for a course's.
  path_id: id.nullable(),
  learner_name: z.string(),
  course_title: z.string(),
  score: z.number().nullable(),
  issued_at: isoDate,
  revoked: z.boolean(),
  revoked_at: isoDate.nullable(),
  revoked_reason: z.string().nullable(),
  pdf_ready: z.boolean(),
  verification_url: z.string().url(),
  // Recertification (issue 34): the last local day it is valid on, the instant that day ends in the
  // organization's zone, and whether that has passed; null and false for a certificate that never expires.
  expires_on: z.string().nullable(),
  expires_at: isoDate.nullable(),
  expired: z.boolean(),
});
const certificateExample = {
  id: 1,
  certificate_id: "LCT-7Q2M-9XK4",
  user_id: 12,
  course_id: 7,
  path_id: null,
  learner_name: "Ada Lovelace",
  course_title: "Safety basics",
  score: 95,
  issued_at: stamp.created_at,
  revoked: false,
  revoked_at: null,
  revoked_reason: null,
  pdf_ready: true,
  verification_url: "http://acme.localhost:3000/certificates/verify/LCT-7Q2M-9XK4",
  expires_on: "2027-05-04",
  expires_at: "2027-05-04T22:00:00.000Z",
  expired: false,
};

export const certificateCalls: ApiCall[] = [
  ...resourceCalls({
    base: "/api/certificates/templates",
    tag: "Certificates",
    noun: "certificate template",
    view: templateView,
    resource: templateResource,
    createExample: { name: "Classic", is_default: false, course_ids: [7] },
    updateExample: { is_default: true },
    replyExample: {
      id: 1,
      name: "Classic",
      is_default: true,
      layout: { page_size: "A4", orientation: "landscape", background_file_id: null, show_logo: true, show_qr: true, blocks: [] },
      course_ids: [7],
      ...stamp,
    },
  }),
  call({
    method: "GET",
    path: "/api/certificates",
    tag: "Certificates",
    summary: "Certificates",
    description: "The caller's own; `scope=all` the organization's, for holders of read:certificate-template.",
    access: "learn:course",
    query: listQuery,
    reply: page(certificateView),
    errors: guarded(E.invalid),
    example: { query: { scope: "own" }, reply: { data: [certificateExample], meta: meta1 } },
    // Certificates are issued by completing a course, never posted.
    handler: ({ request, context, query }) => certificatePage(request, context, query),
  }),
  call({
    method: "GET",
    path: "/api/certificates/search",
    tag: "Certificates",
    summary: "Search certificates",
    description: "By course title, learner name or certificate id, within the same scope as the list.",
    access: "learn:course",
    query: certificateSearchQuery,
    reply: page(certificateView),
    errors: guarded(E.invalid),
    example: { query: { q: "safety" }, reply: { data: [certificateExample], meta: meta1 } },
    handler: ({ request, context, query }) => certificatePage(request, context, query),
  }),
  call({
    method: "GET",
    path: "/api/certificates/{id}",
    tag: "Certificates",
    summary: "One certificate",
    description: "One's own, or any with read:certificate-template; another's is a 404.",
    access: "learn:course",
    reply: certificateView,
    errors: guarded(),
    example: { reply: certificateExample },
    handler: async ({ request, context, params }) => {
      const c = visibleCertificate(await certificateCaller(request, context), params.id);
      return c ? viewFor(context, c) : apiNotFound(request, context);
    },
  }),
  call({
    method: "PUT",
    path: "/api/certificates/{id}",
    tag: "Certificates",
    summary: "Revoke or restore a certificate",
    access: "write:certificate-template",
    body: revokeBody,
    reply: certificateView,
    errors: admin,
    example: {
      body: { revoked: true, reason: "Issued by mistake" },
      reply: { ...certificateExample, revoked: true, revoked_at: stamp.created_at, revoked_reason: "Issued by mistake" },
    },
    before: ({ request, context, params }) => (certificateOf(context.db!, params.id) ? undefined : apiNotFound(request, context)),
    handler: ({ context, params, body }) => {
      const db = context.db!;
      const c = certificateOf(db, params.id)!;
      const updated = body.revoked ? revokeCertificate(db, c.id, body.reason) : restoreCertificate(db, c.id);
      return viewFor(context, updated!);
    },
  }),
  call({
    method: "GET",
    path: "/api/certificates/{id}/preview",
    tag: "Certificates",
    summary: "The certificate's PDF",
    description: 'A signed address of the PDF; while it is being made, 202 `{ status: "preparing", job_id }`: call again.',
    access: "learn:course",
    reply: signedUrl.extend({ status: z.literal("ready") }),
    otherReplies: [
      { status: 202, reply: z.object({ status: z.literal("preparing"), job_id: id.nullable() }), description: "the PDF is being made" },
    ],
    errors: guarded({ status: 503, code: "render_failed", when: "the PDF could not be made" }),
    example: {
      reply: {
        url: "http://acme.localhost:3000/files/30/certificate.pdf?expires=1767225600&sig=…",
        expires_at: stamp.created_at,
        status: "ready",
      },
    },
    // Through the files mechanism; while it is being rendered, 202: call again a second or two later.
    handler: async ({ request, context, params }) => {
      const caller = await certificateCaller(request, context);
      const c = visibleCertificate(caller, params.id);
      if (!c) return apiNotFound(request, context);
      const pdf = certificatePdf(context, caller.organization, c);
      if (pdf.state === "ready" && pdf.url)
        return { url: `${context.platform.originFor(caller.organization)}${pdf.url}`, expires_at: pdf.expiresAt, status: "ready" };
      if (pdf.state === "failed") {
        const t = await apiT(request, context);
        return apiError(503, { message: t("certificates.learner.failed"), code: "render_failed" });
      }
      return apiOk({ status: "preparing", job_id: "jobId" in pdf ? pdf.jobId : null }, 202);
    },
  }),
  call({
    method: "GET",
    path: "/api/certificates/templates/preview",
    tag: "Certificates",
    summary: "A template drawn with sample data",
    description: "A PNG as a data address, with the page size in millimetres.",
    access: "read:certificate-template",
    query: previewQuerySchema,
    reply: z.object({
      template_id: id,
      image: z.string().startsWith("data:image/png;base64,"),
      width_mm: z.number(),
      height_mm: z.number(),
    }),
    errors: guarded(
      E.invalid,
      { status: 503, code: "renderer_unavailable", when: "no Chromium to draw with" },
      {
        status: 503,
        code: "render_timeout",
        when: "the drawing took too long: the renderer is busy (try again in a moment) or, the message says so, the background image is too heavy",
      },
    ),
    example: {
      query: { template_id: "1" },
      reply: { template_id: 1, image: "data:image/png;base64,iVBORw0KGgo…", width_mm: 297, height_mm: 210 },
    },
    // Rendered by the same sandboxed renderer as the PDFs.
    handler: async ({ request, context, query }) => {
      const organization = context.organization!;
      const db = context.db!;
      const template = getTemplate(db, query.template_id);
      if (!template) return apiNotFound(request, context);
      const t = await apiT(request, context);
      const language = await languageFor(request, context);
      const drawn = await renderPreviewPng(
        db,
        { dataDir: context.platform.dataDir, organization, origin: context.platform.originFor(organization) },
        context.platform.renderer,
        template.layout,
        { learnerName: t("certificates.sample.learner"), courseTitle: t("certificates.sample.course"), language },
      );
      if ("failure" in drawn) {
        const { message, code, retryAfterSeconds } = drawn.failure;
        return apiError(503, { message: t(message), code }, retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : undefined);
      }
      const box = pageBox(template.layout);
      return {
        template_id: template.id,
        image: `data:image/png;base64,${drawn.png.toString("base64")}`,
        width_mm: box.widthMm,
        height_mm: box.heightMm,
      };
    },
  }),
];
