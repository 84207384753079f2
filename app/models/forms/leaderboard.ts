import { z } from "zod";
import { ACTIVITY_KINDS, BADGE_RULES } from "../vocabulary";

/**
 * The leaderboard tab's forms (docs/product.md §9): an activity's points, a level, a badge, a reset. Not a
 * .server module: the browser checks the same fields with them (app/utils/form.ts); /api reads levels with
 * `levelSchema` too (app/models/level-resource.server.ts).
 */

/** The boards' periods. */
export const PERIODS = ["all", "month", "week"] as const;
export type Period = (typeof PERIODS)[number];

export const activitySchema = z.object({
  points: z.coerce.number().int().min(0).max(100000),
  enabled: z.boolean(),
  dailyCap: z.coerce.number().int().min(1).max(1000).nullable(),
});

/** One activity's row of the tab: its kind, points, daily cap (empty: none) and whether it counts. */
export const activityFormSchema = z.object({
  kind: z.enum(ACTIVITY_KINDS),
  points: z.number().int().min(0).max(100000),
  enabled: z.boolean().default(false),
  dailyCap: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .transform((v) => v ?? null),
});

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "validation.invalid");

export const levelSchema = z.object({
  name: z.string().trim().min(1).max(60),
  threshold: z.coerce.number().int().min(0).max(10_000_000),
  color,
});

export const badgeSchema = z.object({
  name: z.string().trim().min(1).max(80),
  description: z.string().trim().max(300).default(""),
  rule: z.enum(BADGE_RULES),
  threshold: z.coerce.number().int().min(1).max(10_000_000),
  color,
});

/** Resetting the board of one period. */
export const resetFormSchema = z.object({ period: z.enum(PERIODS) });
