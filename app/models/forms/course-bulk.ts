import { z } from "zod";
import type { CourseBulkAction } from "../../access/rules";

/**
 * A bulk action on courses (issue 50; app/models/course-bulk/): what to do, to which courses — the rows ticked on
 * the courses list (`ids`, at most a page of them) or every course its search and filters match (`scope: "all"`,
 * the filters sent along as the list's own parameters) — and what the action needs: the category to move them
 * to ("none": out of every category), and for deleting, a tick that says the courses and all in them go.
 * Not a .server module: the list's form checks the same fields in the browser.
 */
export const COURSE_BULK_ACTIONS = ["publish", "unpublish", "move", "delete"] as const satisfies readonly CourseBulkAction[];

/** The most rows a page shows, so the most a form ticks. */
const MAX_TICKED = 100;

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const fields = {
  bulkAction: z.enum(COURSE_BULK_ACTIONS, { errorMap: () => ({ message: "courseBulk.errors.action" }) }),
  scope: z.enum(["selected", "all"]).default("selected"),
  ids: z.array(id).max(MAX_TICKED).default([]),
  bulkCategory: z.union([z.literal("none"), id]).optional(),
  confirmDelete: z.literal("yes").optional(),
};

type Selection = { scope: "selected" | "all"; ids: number[] };
const some = (value: Selection, ctx: z.RefinementCtx) => {
  if (value.scope === "selected" && value.ids.length === 0)
    ctx.addIssue({ code: "custom", path: ["ids"], message: "courseBulk.errors.none" });
};

/** What the courses list's "Continue" asks: an action, and which courses (the confirmation page then asks the rest). */
export const courseBulkSelectionSchema = z
  .object({ bulkAction: fields.bulkAction, scope: fields.scope, ids: fields.ids })
  .superRefine(some);

/** The whole action, as the confirmation page sends it. */
export const courseBulkSchema = z.object(fields).superRefine((value, ctx) => {
  some(value, ctx);
  if (value.bulkAction === "move" && value.bulkCategory === undefined)
    ctx.addIssue({ code: "custom", path: ["bulkCategory"], message: "courseBulk.errors.category" });
  if (value.bulkAction === "delete" && value.confirmDelete !== "yes")
    ctx.addIssue({ code: "custom", path: ["confirmDelete"], message: "courseBulk.errors.confirmDelete" });
});
export type CourseBulkForm = z.infer<typeof courseBulkSchema>;

/** The category a move names, as the job keeps it: an id, or null for none. */
export const categoryOf = (value: "none" | number | undefined) => (value === undefined ? undefined : value === "none" ? null : value);
