import { z } from "zod";
import { templateResource } from "~/models/certificate.server";
import { id, isoDate, type ApiCall } from "../contract.server";
import { resourceCalls } from "../resource.server";

/** Certificates and their templates (spec §7 "certificates", docs/decisions/015-certificates.md). */
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
];
