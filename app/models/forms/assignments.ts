import { z } from "zod";
import { isDate } from "../../utils/calendar";

/**
 * The assignment forms' schemas (issue 34; app/screens/assignments.tsx). Not a .server module: the browser
 * checks the same fields with them (app/utils/form.ts) before the server does, which then asks the model
 * (app/models/assignment.server.ts `createAssignment`) whether the course, person and group may be assigned.
 */

/** The longest relative due rule: ten years of days (the table's check in db/tenant.ts says the same). */
export const MAX_DUE_DAYS = 3650;

const due = {
  due: z.enum(["date", "days"], { errorMap: () => ({ message: "validation.invalidOption" }) }),
  dueDate: z.string().trim().max(10, "assignments.errors.dueDate").optional(),
  dueDays: z.coerce
    .number({ invalid_type_error: "assignments.errors.dueDays" })
    .int("assignments.errors.dueDays")
    .min(0, "assignments.errors.dueDays")
    .max(MAX_DUE_DAYS, "assignments.errors.dueDays")
    .optional(),
};

type DueFields = { due: "date" | "days"; dueDate?: string; dueDays?: number };

function checkDue(value: DueFields, ctx: z.RefinementCtx) {
  if (value.due === "date" && !(value.dueDate && isDate(value.dueDate)))
    ctx.addIssue({ code: "custom", path: ["dueDate"], message: "assignments.errors.dueDate" });
  if (value.due === "days" && value.dueDays === undefined)
    ctx.addIssue({ code: "custom", path: ["dueDays"], message: "assignments.errors.dueDays" });
}

/** A course's assignments screen: to a person (an e-mail or a name, or one of the people it found) or a group. */
export const assignFormSchema = z
  .object({
    target: z.enum(["person", "group"], { errorMap: () => ({ message: "validation.invalidOption" }) }),
    person: z.string().trim().max(254).optional(),
    userId: z.coerce.number().int().positive().optional(),
    groupId: z.coerce.number().int().positive().optional(),
    ...due,
  })
  .superRefine((value, ctx) => {
    if (value.target === "person" && !value.person && value.userId === undefined)
      ctx.addIssue({ code: "custom", path: ["person"], message: "assigning.errors.personRequired" });
    if (value.target === "group" && value.groupId === undefined)
      ctx.addIssue({ code: "custom", path: ["groupId"], message: "assigning.errors.groupRequired" });
    checkDue(value, ctx);
  });
export type AssignForm = z.infer<typeof assignFormSchema>;

/** A group's assignments screen: a course, to this group. */
export const assignCourseFormSchema = z
  .object({
    courseId: z.coerce.number({ invalid_type_error: "assignments.errors.course" }).int().positive("assignments.errors.course"),
    ...due,
  })
  .superRefine(checkDue);
export type AssignCourseForm = z.infer<typeof assignCourseFormSchema>;

/** The due rule a form gives, as the model takes it. */
export function dueRuleOf(value: DueFields): { kind: "date"; date: string } | { kind: "days"; days: number } {
  return value.due === "date" ? { kind: "date", date: value.dueDate ?? "" } : { kind: "days", days: value.dueDays ?? -1 };
}
