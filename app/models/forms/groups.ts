import { z } from "zod";
import { LANGUAGES } from "../../utils/i18n";
import { GROUP_RULE_FIELDS, GROUP_RULE_OPERATORS } from "../vocabulary";

/**
 * The group forms' schemas (docs/decisions/017-groups-and-import.md). Not a .server module: the browser
 * checks the same fields with them (app/utils/form.ts) before the server does.
 */
export const groupFormSchema = z.object({
  name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(120),
  description: z.string().trim().max(2000).default(""),
  coverFileId: z.coerce
    .number()
    .int()
    .positive()
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  ruleMatch: z.enum(["all", "any"]).default("all"),
});
export type GroupForm = z.infer<typeof groupFormSchema>;

/** Which operators each field takes. */
export const RULE_OPERATORS: Record<(typeof GROUP_RULE_FIELDS)[number], readonly (typeof GROUP_RULE_OPERATORS)[number][]> = {
  email: ["equals", "not_equals", "contains", "starts_with", "ends_with"],
  first_name: ["equals", "not_equals", "contains", "starts_with", "ends_with"],
  last_name: ["equals", "not_equals", "contains", "starts_with", "ends_with"],
  phone: ["equals", "not_equals", "contains", "starts_with", "ends_with"],
  language: ["equals", "not_equals"],
  role: ["equals", "not_equals"],
  created_at: ["before", "after"],
  completed_course: ["is", "is_not"],
  member_of_group: ["is", "is_not"],
};

/** A rule as a form or /api body gives it: for course and group rules the value is the id. */
export const ruleSchema = z
  .object({
    field: z.enum(GROUP_RULE_FIELDS, { errorMap: () => ({ message: "validation.invalidOption" }) }),
    operator: z.enum(GROUP_RULE_OPERATORS, { errorMap: () => ({ message: "validation.invalidOption" }) }),
    value: z
      .union([z.string(), z.number()])
      .transform((v) => String(v).trim())
      .pipe(z.string().min(1, "validation.required").max(254)),
  })
  .superRefine((rule, ctx) => {
    if (!RULE_OPERATORS[rule.field].includes(rule.operator)) {
      ctx.addIssue({ code: "custom", path: ["operator"], message: "groups.errors.operator" });
    }
    const bad = (message: string) => ctx.addIssue({ code: "custom", path: ["value"], message });
    if (rule.field === "language" && !(LANGUAGES as readonly string[]).includes(rule.value)) bad("validation.invalidOption");
    if (rule.field === "role" && !["learner", "admin"].includes(rule.value)) bad("validation.invalidOption");
    if (rule.field === "created_at" && !/^\d{4}-\d{2}-\d{2}$/.test(rule.value)) bad("groups.errors.date");
    if ((rule.field === "completed_course" || rule.field === "member_of_group") && !/^\d{1,15}$/.test(rule.value))
      bad("validation.invalidOption");
  });
export type RuleInput = z.infer<typeof ruleSchema>;

/**
 * The three rule forms of a group's page: a person rule names its field and value; a course rule
 * (`kind=course`) its course, a group rule (`kind=group`) the other group. Read as one rule.
 */
export const ruleFormSchema = z
  .object({
    kind: z.enum(["person", "course", "group"]).default("person"),
    field: z.string().optional(),
    operator: z.string().optional(),
    value: z.string().optional(),
    courseId: z.string().optional(),
    otherGroupId: z.string().optional(),
  })
  .transform((form, ctx) => {
    const raw =
      form.kind === "course"
        ? { field: "completed_course", operator: form.operator, value: form.courseId ?? "" }
        : form.kind === "group"
          ? { field: "member_of_group", operator: form.operator, value: form.otherGroupId ?? "" }
          : { field: form.field, operator: form.operator, value: form.value ?? "" };
    const rule = ruleSchema.safeParse(raw);
    if (rule.success) return rule.data;
    for (const issue of rule.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return z.NEVER;
  });
