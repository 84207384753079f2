import { z } from "zod";
import { LANGUAGES } from "../../utils/i18n";

/**
 * The organization forms' schemas (settings, and a new organization) and the host-name check they use. Not a
 * .server module: the browser checks the same fields with them (app/utils/form.ts) before the server does.
 */
const MAX_HOST_LENGTH = 253;
const HOST_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * A Host header as a lower-case host name without the port, or null when it is not a host name we could
 * ever serve (IP literals in brackets, trailing dots, paths, oversized values).
 */
export function normalizeHost(raw: string | undefined | null): string | null {
  if (!raw || raw.length > MAX_HOST_LENGTH + 6) return null;
  const host = raw
    .trim()
    .toLowerCase()
    .replace(/:\d{1,5}$/, "");
  if (host.length === 0 || host.length > MAX_HOST_LENGTH) return null;
  return HOST_PATTERN.test(host) ? host : null;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const hostField = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .refine((v) => normalizeHost(v) === v && v.includes("."), "validation.host")
  .nullable()
  .optional()
  .transform((v) => (v ? v : null));

/** What a super-admin (or the organization's own admin) may set on an organization. */
export const organizationSettingsSchema = z.object({
  name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(120),
  language: z.enum(LANGUAGES, { errorMap: () => ({ message: "validation.invalidOption" }) }),
  urlPrefix: z
    .string()
    .trim()
    .toLowerCase()
    .max(63)
    .refine((v) => v === "" || LABEL.test(v), "validation.urlPrefix")
    .optional()
    .transform((v) => (v ? v : null)),
  domain: hostField,
  customDomain: hostField,
  twoFactorRequired: z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean()).default(false),
  footer: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((v) => v || null),
  bcc: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === "" || z.string().email().safeParse(v).success, "validation.email")
    .optional()
    .transform((v) => v || null),
  featuredCourse: z
    .preprocess((v) => (v === "" || v === undefined ? null : v), z.coerce.number().int().positive().nullable())
    .default(null),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

export const createOrganizationSchema = z.object({
  name: organizationSettingsSchema.shape.name,
  language: organizationSettingsSchema.shape.language,
  urlPrefix: organizationSettingsSchema.shape.urlPrefix,
  adminEmail: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === "" || z.string().email().safeParse(v).success, "validation.email")
    .optional()
    .transform((v) => v || null),
});
