import { z } from "zod";
import { SSO_DRIVER_KINDS, USER_ROLES } from "../vocabulary";

/**
 * An identity provider's form (docs/decisions/019-sso.md). Not a .server module: the browser checks the same
 * fields with it (app/utils/form.ts); app/models/sso/drivers.server.ts checks what needs the database.
 */
const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean()).default(false);
const optionalUrl = z
  .string()
  .trim()
  .max(2000)
  .optional()
  .transform((v) => v ?? "")
  .refine((v) => v === "" || isHttpUrl(v), "sso.errors.url");
const claim = (fallback: string) =>
  z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v || fallback)
    .refine((v) => /^[A-Za-z0-9_.:-]+$/.test(v), "sso.errors.claim");

function isHttpUrl(value: string) {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * What an admin enters for a driver. The client secret is write-only: left empty on an edit, the stored
 * one stays. Which addresses are required depends on the kind.
 */
export const ssoDriverSchema = z
  .object({
    kind: z.enum(SSO_DRIVER_KINDS, { errorMap: () => ({ message: "validation.invalidOption" }) }),
    slug: z
      .string({ required_error: "validation.required" })
      .trim()
      .toLowerCase()
      .min(1, "validation.required")
      .max(40)
      .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "sso.errors.slug")
      .refine((v) => v !== "callback", "sso.errors.slug"),
    label: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(80),
    enabled: checkbox,
    issuer: optionalUrl,
    authorizationUrl: optionalUrl,
    tokenUrl: optionalUrl,
    userinfoUrl: optionalUrl,
    clientId: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(500),
    clientSecret: z
      .string()
      .max(2000)
      .optional()
      .transform((v) => v ?? ""),
    scopes: z
      .string()
      .trim()
      .max(500)
      .optional()
      .transform((v) => (v ? v.split(/\s+/).join(" ") : ""))
      .refine((v) => /^[\x21-\x7e ]*$/.test(v), "sso.errors.scopes"),
    subjectClaim: claim("sub"),
    emailClaim: claim("email"),
    firstNameClaim: claim("given_name"),
    lastNameClaim: claim("family_name"),
    createUsers: checkbox,
    defaultRole: z.enum(USER_ROLES, { errorMap: () => ({ message: "validation.invalidOption" }) }).default("learner"),
    defaultGroupIds: z
      .preprocess((v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int().positive()))
      .default([]),
    managedExternally: checkbox,
    linkByEmail: checkbox,
  })
  .superRefine((value, ctx) => {
    const need = (field: "issuer" | "authorizationUrl" | "tokenUrl" | "userinfoUrl") => {
      if (!value[field]) ctx.addIssue({ code: "custom", path: [field], message: "validation.required" });
    };
    if (value.kind === "oidc") need("issuer");
    else {
      need("authorizationUrl");
      need("tokenUrl");
      need("userinfoUrl");
    }
  });
