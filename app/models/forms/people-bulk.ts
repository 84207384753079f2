import { z } from "zod";
import { isDate } from "../../utils/calendar";
import type { PeopleBulkAction } from "../../access/rules";

/**
 * A bulk action on people (issue 50; app/models/people-bulk/): what to do, to whom — the rows ticked on the
 * people list (`ids`, at most a page of them) or every person its search and filters match (`scope: "all"`,
 * the filters sent along as the list's own parameters) — and what the action needs: a group, a course or a learning
 * path and its due day, or a role. Not a .server module: the list's form checks the same fields in the browser.
 */
export const PEOPLE_BULK_ACTIONS = [
  "add_to_group",
  "remove_from_group",
  "assign_course",
  "assign_path",
  "deactivate",
  "reactivate",
  "change_role",
  "resend_invitation",
] as const satisfies readonly PeopleBulkAction[];

/**
 * What the people list's bar offers: the actions above, and the chosen people as a CSV file (no job: the
 * confirmation's link downloads it from `GET /api/users/export`, with the same ids or filters).
 */
export const PEOPLE_BULK_CHOICES = [...PEOPLE_BULK_ACTIONS, "export"] as const;
export type PeopleBulkChoice = (typeof PEOPLE_BULK_CHOICES)[number];

/** The most rows a page shows, so the most a form ticks. */
const MAX_TICKED = 100;

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const fields = {
  bulkAction: z.enum(PEOPLE_BULK_ACTIONS, { errorMap: () => ({ message: "bulk.errors.action" }) }),
  scope: z.enum(["selected", "all"]).default("selected"),
  ids: z.array(id).max(MAX_TICKED).default([]),
  bulkGroup: id.optional(),
  bulkCourse: id.optional(),
  bulkPath: id.optional(),
  bulkDue: z.string().trim().max(10).optional(),
  bulkRole: z.enum(["learner", "admin", "none"]).optional(),
};

type Selection = { scope: "selected" | "all"; ids: number[] };
const someone = (value: Selection, ctx: z.RefinementCtx) => {
  if (value.scope === "selected" && value.ids.length === 0) ctx.addIssue({ code: "custom", path: ["ids"], message: "bulk.errors.none" });
};

/** What the people list's "Continue" asks: an action, and whom (the confirmation page then asks the rest). */
export const peopleBulkSelectionSchema = z
  .object({
    bulkAction: z.enum(PEOPLE_BULK_CHOICES, { errorMap: () => ({ message: "bulk.errors.action" }) }),
    scope: fields.scope,
    ids: fields.ids,
  })
  .superRefine(someone);

/** The whole action, as the confirmation page (or /api) sends it. */
export const peopleBulkSchema = z.object(fields).superRefine((value, ctx) => {
  someone(value, ctx);
  const needs = (field: "bulkGroup" | "bulkCourse" | "bulkPath" | "bulkRole", message: string) => {
    if (value[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message });
  };
  if (value.bulkAction === "add_to_group" || value.bulkAction === "remove_from_group") needs("bulkGroup", "bulk.errors.group");
  if (value.bulkAction === "assign_course" || value.bulkAction === "assign_path") {
    if (value.bulkAction === "assign_course") needs("bulkCourse", "bulk.errors.course");
    else needs("bulkPath", "bulkMore.errors.path");
    if (!(value.bulkDue && isDate(value.bulkDue))) ctx.addIssue({ code: "custom", path: ["bulkDue"], message: "bulk.errors.due" });
  }
  if (value.bulkAction === "change_role") needs("bulkRole", "bulk.errors.role");
});
export type PeopleBulkForm = z.infer<typeof peopleBulkSchema>;
