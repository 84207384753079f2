import { z } from "zod";
import {
  createXapiCredential,
  DEFAULT_CREDENTIAL_DAYS,
  listXapiCredentials,
  MAX_CREDENTIAL_DAYS,
  revokeXapiCredential,
} from "~/models/xapi/credentials.server";
import { browseStatements, BROWSE_PAGE } from "~/models/xapi/statement-browse.server";
import { isAbsoluteIri } from "~/models/xapi/agents";
import { XAPI_FORM_SCOPES, XAPI_FORM_VERSIONS } from "~/models/forms/xapi-credentials";
import { apiError, apiNotFound, apiT } from "~/utils/api.server";
import { xapiCredentialLacks } from "~/access/xapi";
import { call, E, guarded, id, isoDate, type ApiCall } from "../contract.server";

/**
 * The organization's Learning Record Store through /api (issue 47; docs/decisions/043-learning-record-store.md):
 * its credentials (listed, made, revoked: `manage:xapi`) and its statements as its admins read them
 * (`read:xapi`). The LRS itself is at /xapi, with xAPI's own protocol.
 */

const credentialReply = z.object({
  id,
  name: z.string(),
  key: z.string(),
  scope: z.enum(["all", "write", "actor"]),
  version: z.enum(XAPI_FORM_VERSIONS),
  expires_at: isoDate,
  revoked_at: isoDate.nullable(),
  last_used_at: isoDate.nullable(),
});

const credentialBody = z.object({
  name: z.string().trim().min(1, "validation.required").max(100),
  scope: z.enum(XAPI_FORM_SCOPES),
  version: z.enum(XAPI_FORM_VERSIONS).default("2.0.0"),
  expires_in_days: z.number().int().min(1).max(MAX_CREDENTIAL_DAYS).default(DEFAULT_CREDENTIAL_DAYS),
});

const iri = z.string().max(2000).refine(isAbsoluteIri, "validation.invalid");
const statementsQuery = z.object({
  actor: z.string().trim().min(1).max(500).optional(),
  verb: iri.optional(),
  activity: iri.optional(),
  since: z.string().datetime({ offset: true }).optional(),
  until: z.string().datetime({ offset: true }).optional(),
  before: z.coerce.number().int().positive().optional(),
});

const statementRow = z.object({
  id: z.string().uuid(),
  stored: isoDate,
  actor: z.string(),
  verb: z.string(),
  object: z.string(),
  object_type: z.string(),
  score_scaled: z.number().nullable(),
  success: z.boolean().nullable(),
  completion: z.boolean().nullable(),
  voided: z.boolean(),
});

const credentialExample = {
  id: 3,
  name: "Storyline courses",
  key: "Jm3l6pQx0cE0cW1sV2r8Zg",
  scope: "write",
  version: "1.0.3",
  expires_at: "2026-06-03T09:30:00.000Z",
  revoked_at: null,
  last_used_at: "2026-05-05T12:00:00.000Z",
} as const;

type Listed = ReturnType<typeof listXapiCredentials>[number];
const view = (c: Pick<Listed, "id" | "name" | "key" | "scope" | "version" | "expiresAt" | "revokedAt" | "lastUsedAt">) => ({
  id: c.id,
  name: c.name,
  key: c.key,
  scope: c.scope,
  version: c.version,
  expires_at: c.expiresAt.toISOString(),
  revoked_at: c.revokedAt?.toISOString() ?? null,
  last_used_at: c.lastUsedAt?.toISOString() ?? null,
});

export const xapiCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/xapi/credentials",
    tag: "Learning Record Store",
    summary: "The LRS's credentials",
    description: "Live ones and those that ended in the last 30 days, newest first; never the secrets.",
    access: "manage:xapi",
    reply: z.object({ data: z.array(credentialReply) }),
    errors: guarded(),
    example: { reply: { data: [credentialExample] } },
    handler: ({ context }) => ({ data: listXapiCredentials(context.db!).map(view) }),
  }),
  call({
    method: "POST",
    path: "/api/xapi/credentials",
    tag: "Learning Record Store",
    summary: "Create an LRS credential",
    description:
      "A key and secret for HTTP Basic at /xapi; the secret is in this reply only. Its maker holds what it grants: `write:user` (statements record learners' results), and `read:xapi` for `all`. `scope`: `all` reads and writes every record, `write` writes and reads only its own. `version`: the xAPI version its client speaks (named in replies to requests that name none). Lives 1 to 365 days.",
    access: "manage:xapi",
    body: credentialBody,
    reply: credentialReply.extend({ secret: z.string() }),
    status: 201,
    errors: guarded(E.invalid, E.invalidBody),
    example: {
      body: { name: "Storyline courses", scope: "write", version: "1.0.3", expires_in_days: 30 },
      reply: { ...credentialExample, last_used_at: null, secret: "q9t0mG8wJ2kq6p1xS0dQm3R5aV7bY9cE1fH3jK5lN7o" },
    },
    handler: async ({ request, context, viewer, body }) => {
      const lacks = xapiCredentialLacks(viewer.capabilities, body.scope);
      if (lacks.length) {
        const t = await apiT(request, context);
        return apiError(422, {
          message: t("api.invalid"),
          code: "invalid",
          fields: { scope: [t("api.beyondOwnCapabilities", { capabilities: lacks.join(", ") })] },
        });
      }
      const made = createXapiCredential(context.db!, {
        name: body.name,
        scope: body.scope,
        version: body.version,
        days: body.expires_in_days,
        // A token's or session's person made it; a super-admin's belongs to the organization.
        userId: viewer.role === "super_admin" ? null : (viewer.person?.id ?? null),
        notAfter: viewer.token?.expiresAt ?? undefined,
      });
      if ("error" in made) throw new Error(made.error);
      return { ...view(made.credential), secret: made.secret };
    },
  }),
  call({
    method: "DELETE",
    path: "/api/xapi/credentials/{id}",
    tag: "Learning Record Store",
    summary: "Revoke an LRS credential",
    access: "manage:xapi",
    reply: z.object({ id, revoked: z.literal(true) }),
    errors: guarded(),
    example: { reply: { id: 3, revoked: true } },
    handler: ({ request, context, params }) => {
      const parsed = z.object({ id: z.coerce.number().int().positive() }).safeParse(params);
      if (!parsed.success || !revokeXapiCredential(context.db!, parsed.data.id)) return apiNotFound(request, context);
      return { id: parsed.data.id, revoked: true };
    },
  }),
  call({
    method: "GET",
    path: "/api/xapi/statements",
    tag: "Learning Record Store",
    summary: "The LRS's statements",
    description: `Newest first, ${BROWSE_PAGE} a page, voided ones marked: filter by \`actor\` (an e-mail address, or an agent key such as \`account:<homePage>|<name>\`), \`verb\` and \`activity\` (IRIs) and \`since\`/\`until\` (stored, ISO 8601); \`before\` is the \`next_before\` of the page before. The statements themselves, with every xAPI filter, are at /xapi/statements.`,
    access: "read:xapi",
    query: statementsQuery,
    reply: z.object({ data: z.array(statementRow), next_before: id.nullable() }),
    errors: guarded(E.invalid),
    example: {
      query: { actor: "learner@acme.example" },
      reply: {
        data: [
          {
            id: "5d5c1b3e-1f0e-4b5e-9a51-2f3c4d5e6f70",
            stored: "2026-05-05T12:00:00.000Z",
            actor: "Lena Learner",
            verb: "completed",
            object: "Safety basics",
            object_type: "Activity",
            score_scaled: 0.9,
            success: true,
            completion: true,
            voided: false,
          },
        ],
        next_before: null,
      },
    },
    handler: ({ context, query }) => {
      const page = browseStatements(
        context.db!,
        {
          actor: query.actor,
          verb: query.verb,
          activity: query.activity,
          from: query.since === undefined ? undefined : Date.parse(query.since),
          until: query.until === undefined ? undefined : Date.parse(query.until),
        },
        query.before,
      );
      return {
        data: page.statements.map((s) => ({
          id: s.id,
          stored: s.stored.toISOString(),
          actor: s.actor,
          verb: s.verb,
          object: s.object,
          object_type: s.objectType,
          score_scaled: s.score,
          success: s.success,
          completion: s.completion,
          voided: s.voided,
        })),
        next_before: page.next,
      };
    },
  }),
];
