import { z } from "zod";
import { formErrorMap } from "../../utils/form";
import { CERTIFICATE_ORIENTATIONS, CERTIFICATE_PAGE_SIZES } from "../vocabulary";

/** The most text blocks a template has. */
export const MAX_BLOCKS = 20;

/**
 * The forms of the certificate templates' page (docs/decisions/015-certificates.md). Not a .server module:
 * the browser checks the same fields with them (app/utils/form.ts).
 */
export const revokeSchema = z.object({
  reason: z.string({ required_error: "certificates.errors.reason" }).trim().min(1, "certificates.errors.reason").max(500),
});

/** A new template: its name (the layout starts from the starter blocks). */
export const newTemplateSchema = z.object({
  name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
});

const color = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "certificates.errors.color");

/** One text block of a template (placed in % of the page, its size in points). */
export const blockSchema = z.object({
  text: z.string().trim().min(1, "validation.required").max(500),
  x: z.coerce.number().min(0).max(100),
  y: z.coerce.number().min(0).max(100),
  width: z.coerce.number().min(5).max(100),
  size: z.coerce.number().int().min(6).max(96),
  align: z.enum(["left", "center", "right"]).default("center"),
  bold: z.boolean().default(false),
  color: color.default("#1f2937"),
});

/** A template's layout: the look snapshot onto each certificate when it is issued. */
export const layoutSchema = z.object({
  pageSize: z.enum(CERTIFICATE_PAGE_SIZES).default("a4"),
  orientation: z.enum(CERTIFICATE_ORIENTATIONS).default("landscape"),
  backgroundFileId: z.number().int().positive().nullable().default(null),
  showLogo: z.boolean().default(true),
  showQr: z.boolean().default(true),
  blocks: z.array(blockSchema).max(MAX_BLOCKS).default([]),
});

/** The editor's form names of a layout's fields (a block's messages go on `block_<slot>`). */
const LAYOUT_FIELDS: Record<string, string> = {
  pageSize: "page_size",
  orientation: "orientation",
  backgroundFileId: "background_file_id",
  showLogo: "show_logo",
  showQr: "show_qr",
};
const BLOCK_PARTS = ["text", "x", "y", "width", "size", "align", "bold", "color", "remove"] as const;

const blockSlots = Object.fromEntries(
  Array.from({ length: MAX_BLOCKS + 1 }, (_, i) => BLOCK_PARTS.map((part) => [`block_${i}_${part}`, z.string().optional()])).flat(),
) as Record<`block_${number}_${(typeof BLOCK_PARTS)[number]}`, z.ZodOptional<z.ZodString>>;

/**
 * The template editor's form: the name, the page, and the blocks in numbered slots (`block_count` of them:
 * the template's blocks and one empty slot for a new one; a slot ticked "remove" or without text is left
 * out). Read as a layout with `layoutSchema`. The name is needed to save, not to preview.
 */
export const templateFormSchema = z
  .object({
    intent: z.string().optional(),
    name: z.string().optional(),
    page_size: z.string().optional(),
    orientation: z.string().optional(),
    background_file_id: z.string().optional(),
    show_logo: z.string().optional(),
    show_qr: z.string().optional(),
    is_default: z.string().optional(),
    course_id: z.array(z.string()).optional(),
    block_count: z.string().optional(),
    ...blockSlots,
  })
  .transform((form, ctx) => {
    const slots = form as Record<string, string | undefined>;
    const count = Math.min(MAX_BLOCKS + 1, Math.max(0, Number(form.block_count) || 0));
    const used: number[] = [];
    const blocks: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const f = (part: string) => slots[`block_${i}_${part}`];
      if (f("remove") === "on" || !(f("text") ?? "").trim()) continue;
      used.push(i);
      blocks.push({
        text: f("text") ?? "",
        x: f("x") ?? "",
        y: f("y") ?? "",
        width: f("width") ?? "",
        size: f("size") ?? "",
        align: f("align") ?? "center",
        bold: f("bold") === "on",
        color: f("color") ?? "#1f2937",
      });
    }
    const background = form.background_file_id ?? "";
    const layout = layoutSchema.safeParse(
      {
        pageSize: form.page_size ?? "a4",
        orientation: form.orientation ?? "landscape",
        backgroundFileId: background === "" ? null : Number(background),
        showLogo: form.show_logo === "on",
        showQr: form.show_qr === "on",
        blocks,
      },
      { errorMap: formErrorMap },
    );
    const intent = form.intent ?? "save";
    const name = (form.name ?? "").trim();
    if (intent !== "preview") {
      if (!name) ctx.addIssue({ code: "custom", path: ["name"], message: "validation.required" });
      else if (name.length > 200) ctx.addIssue({ code: "custom", path: ["name"], message: "validation.tooLong|200" });
    }
    if (!layout.success) {
      for (const issue of layout.error.issues) {
        const [first, index] = issue.path;
        const path =
          first === "blocks" && typeof index === "number"
            ? `block_${used[index] ?? index}`
            : (LAYOUT_FIELDS[String(first)] ?? "block_count");
        ctx.addIssue({ code: "custom", path: [path], message: issue.message });
      }
      return z.NEVER;
    }
    if (intent !== "preview" && (!name || name.length > 200)) return z.NEVER;
    const courseIds = (form.course_id ?? []).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
    return { intent, name, is_default: form.is_default === "on", layout: layout.data, course_ids: courseIds };
  });
