import { asc, count } from "drizzle-orm";
import { z } from "zod";
import { CERTIFICATE_ORIENTATIONS, CERTIFICATE_PAGE_SIZES, certificateTemplates, type CertificateLayout } from "../../db/tenant";
import { contains } from "../utils/pagination";
import { blockSchema } from "./forms/certificates";
import type { Resource } from "./resource";
import {
  createTemplate,
  DEFAULT_LAYOUT,
  deleteTemplate,
  getTemplate,
  listTemplates,
  templateCourseIds,
  templateSchema,
  templateView,
  updateTemplate,
  type TemplateView,
} from "./certificate-templates.server";

/** Certificate templates in /api (app/api/resource.server.ts): the generic calls, and the preview's input. */

/** /api accepts the layout in snake_case (as it answers) and turns it into the stored shape. */
const apiLayout = z
  .object({
    page_size: z.enum(CERTIFICATE_PAGE_SIZES).optional(),
    orientation: z.enum(CERTIFICATE_ORIENTATIONS).optional(),
    background_file_id: z.number().int().positive().nullable().optional(),
    show_logo: z.boolean().optional(),
    show_qr: z.boolean().optional(),
    blocks: z.array(blockSchema).max(20).optional(),
  })
  .strict();

function fromApiLayout(input: z.infer<typeof apiLayout> | undefined, base: CertificateLayout): CertificateLayout {
  return {
    pageSize: input?.page_size ?? base.pageSize,
    orientation: input?.orientation ?? base.orientation,
    backgroundFileId: input?.background_file_id !== undefined ? input.background_file_id : base.backgroundFileId,
    showLogo: input?.show_logo ?? base.showLogo,
    showQr: input?.show_qr ?? base.showQr,
    blocks: input?.blocks ?? base.blocks,
  };
}

const apiCreate = z.object({
  name: templateSchema.shape.name,
  is_default: z.boolean().default(false),
  layout: apiLayout.optional(),
  course_ids: z.array(z.number().int().positive()).max(500).optional(),
});
const apiUpdate = apiCreate.partial();

export const templateResource: Resource<TemplateView, typeof apiCreate, typeof apiUpdate> = {
  read: "read:certificate-template",
  write: "write:certificate-template",
  createSchema: apiCreate,
  updateSchema: apiUpdate,
  list: (db, _viewer, page) => {
    const rows = listTemplates(db);
    const items = rows
      .slice((page.page - 1) * page.perPage, page.page * page.perPage)
      .map((t) => templateView(t, templateCourseIds(db, t.id)));
    return { items, total: rows.length };
  },
  search: (db, _viewer, q, page) => {
    const where = contains(certificateTemplates.name, q);
    const total = db.select({ n: count() }).from(certificateTemplates).where(where).get()?.n ?? 0;
    const rows = db
      .select()
      .from(certificateTemplates)
      .where(where)
      .orderBy(asc(certificateTemplates.name))
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .all();
    return { items: rows.map((t) => templateView(t, templateCourseIds(db, t.id))), total };
  },
  get: (db, _viewer, id) => {
    const t = getTemplate(db, id);
    return t ? templateView(t, templateCourseIds(db, t.id)) : null;
  },
  create: (db, _viewer, input) => {
    const result = createTemplate(db, {
      name: input.name,
      is_default: input.is_default,
      layout: fromApiLayout(input.layout, DEFAULT_LAYOUT),
      course_ids: input.course_ids,
    });
    return result.ok ? { ok: true, value: templateView(result.value, templateCourseIds(db, result.value.id)) } : result;
  },
  update: (db, _viewer, id, input) => {
    const existing = getTemplate(db, id);
    if (!existing) return null;
    const result = updateTemplate(db, id, {
      name: input.name,
      is_default: input.is_default,
      layout: input.layout ? fromApiLayout(input.layout, existing.layout) : undefined,
      course_ids: input.course_ids,
    });
    if (!result) return null;
    return result.ok ? { ok: true, value: templateView(result.value, templateCourseIds(db, id)) } : result;
  },
  remove: (db, _viewer, id) => deleteTemplate(db, id),
};

/** /api's preview input: a saved template by id, or a layout sent as it would be saved. */
export const previewQuerySchema = z.object({ template_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
