import { z } from "zod";
import { agentKey, isAbsoluteIri } from "./agents";

/*
 * What a statement may hold (xAPI 2.0.0, IEEE 9274.1.1 §2.4, and 1.0.3, which agree on everything here but
 * where noted): every object strict (a property the specification does not define is refused), IRIs
 * absolute, ids UUIDs, timestamps ISO 8601, durations ISO 8601, scores within their bounds
 * (docs/decisions/043-learning-record-store.md).
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** ISO 8601 date and time; a zone is optional (UTC then), but never `-00:00`. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d(:?\d\d)?)?$/i;
/** ISO 8601 durations: weeks alone (`P2W`), or years to seconds. */
const DURATION =
  /^P(?:\d+(?:\.\d+)?W|(?!$)(\d+(\.\d+)?Y)?(\d+(\.\d+)?M)?(\d+(\.\d+)?D)?(T(?=\d)(\d+(\.\d+)?H)?(\d+(\.\d+)?M)?(\d+(\.\d+)?S)?)?)$/;
const LANGUAGE_TAG = /^[a-z]{2,8}(-[a-z0-9]{1,8})*$/i;

const iri = z.string().refine(isAbsoluteIri, "must be an absolute IRI");
const uuid = z.string().regex(UUID, "must be a UUID");
/** Milliseconds since 1970 of an ISO 8601 timestamp (UTC when it names no zone), or NaN for one that names no real moment. */
export function timestampMs(value: string) {
  if (!TIMESTAMP.test(value)) return NaN;
  const zoned = /(Z|[+-]\d\d(:?\d\d)?)$/i.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  // Date.parse rolls 30 February over to March: the date must read back as written.
  const day = Date.parse(`${value.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(ms) || Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== value.slice(0, 10) ? NaN : ms;
}
export const timestamp = z
  .string()
  .regex(TIMESTAMP, "must be an ISO 8601 timestamp")
  .refine(
    (value) => !value.endsWith("-00:00") && !value.endsWith("-0000") && !Number.isNaN(timestampMs(value)),
    "must be a valid timestamp",
  );
const languageMap = z.record(z.string().regex(LANGUAGE_TAG, "must be a language tag"), z.string());
const extensions = z.record(iri, z.unknown());

const ifiFields = {
  mbox: z.string().optional(),
  mbox_sha1sum: z.string().optional(),
  openid: z.string().optional(),
  account: z.object({ homePage: iri, name: z.string() }).strict().optional(),
};
const hasIfi = (value: Record<string, unknown>) => ["mbox", "mbox_sha1sum", "openid", "account"].some((k) => value[k] !== undefined);

const agentFields = { name: z.string().optional(), ...ifiFields };
const oneIdentifier = [
  (value: Record<string, unknown>) => agentKey(value) !== null,
  "an Agent needs exactly one valid identifier (mbox, mbox_sha1sum, openid or account)",
] as const;
export const agent = z
  .object({ objectType: z.literal("Agent").optional(), ...agentFields })
  .strict()
  .refine(...oneIdentifier);
/** An Agent as a statement's object names its type (an object without one is an Activity). */
const objectAgent = z
  .object({ objectType: z.literal("Agent"), ...agentFields })
  .strict()
  .refine(...oneIdentifier);

export const group = z
  .object({ objectType: z.literal("Group"), name: z.string().optional(), member: z.array(agent).optional(), ...ifiFields })
  .strict()
  .refine(
    (value) => (hasIfi(value) ? agentKey(value) !== null : (value.member?.length ?? 0) > 0),
    "a Group needs one valid identifier, or members",
  );

const actor = z.union([agent, group]);

const interactionComponent = z.object({ id: z.string().min(1), description: languageMap.optional() }).strict();
const INTERACTION_TYPES = [
  "true-false",
  "choice",
  "fill-in",
  "long-fill-in",
  "matching",
  "performance",
  "sequencing",
  "likert",
  "numeric",
  "other",
] as const;

const activityDefinition = z
  .object({
    name: languageMap.optional(),
    description: languageMap.optional(),
    type: iri.optional(),
    moreInfo: iri.optional(),
    extensions: extensions.optional(),
    interactionType: z.enum(INTERACTION_TYPES).optional(),
    correctResponsesPattern: z.array(z.string()).optional(),
    choices: z.array(interactionComponent).optional(),
    scale: z.array(interactionComponent).optional(),
    source: z.array(interactionComponent).optional(),
    target: z.array(interactionComponent).optional(),
    steps: z.array(interactionComponent).optional(),
  })
  .strict()
  .refine(
    (d) => d.interactionType !== undefined || INTERACTION_FIELDS.every((key) => d[key] === undefined),
    "an interaction's properties need its interactionType",
  );
const INTERACTION_FIELDS = ["correctResponsesPattern", "choices", "scale", "source", "target", "steps"] as const;

export const activity = z
  .object({ objectType: z.literal("Activity").optional(), id: iri, definition: activityDefinition.optional() })
  .strict();
const statementRef = z.object({ objectType: z.literal("StatementRef"), id: uuid }).strict();
const verb = z.object({ id: iri, display: languageMap.optional() }).strict();

const score = z
  .object({
    scaled: z.number().min(-1).max(1).optional(),
    raw: z.number().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .strict()
  .refine((s) => s.min === undefined || s.max === undefined || s.min < s.max, "score.min must be below score.max")
  .refine(
    (s) => s.raw === undefined || ((s.min === undefined || s.raw >= s.min) && (s.max === undefined || s.raw <= s.max)),
    "score.raw must lie within min and max",
  );

const result = z
  .object({
    score: score.optional(),
    success: z.boolean().optional(),
    completion: z.boolean().optional(),
    response: z.string().optional(),
    duration: z.string().regex(DURATION, "must be an ISO 8601 duration").optional(),
    extensions: extensions.optional(),
  })
  .strict();

const activities = z.union([activity, z.array(activity)]);
const context = z
  .object({
    registration: uuid.optional(),
    instructor: actor.optional(),
    team: group.optional(),
    contextActivities: z
      .object({
        parent: activities.optional(),
        grouping: activities.optional(),
        category: activities.optional(),
        other: activities.optional(),
      })
      .strict()
      .optional(),
    revision: z.string().optional(),
    platform: z.string().optional(),
    language: z.string().regex(LANGUAGE_TAG, "must be a language tag").optional(),
    statement: statementRef.optional(),
    extensions: extensions.optional(),
    // xAPI 2.0.0 only (checked by version in statements.server.ts).
    contextAgents: z
      .array(z.object({ objectType: z.literal("contextAgent"), agent, relevantTypes: z.array(iri).min(1).optional() }).strict())
      .optional(),
    contextGroups: z
      .array(z.object({ objectType: z.literal("contextGroup"), group, relevantTypes: z.array(iri).min(1).optional() }).strict())
      .optional(),
  })
  .strict();

export const attachment = z
  .object({
    usageType: iri,
    display: languageMap,
    description: languageMap.optional(),
    contentType: z.string().min(1),
    length: z.number().int().min(0),
    sha2: z.string().regex(/^[0-9a-f]{64}$|^[0-9a-f]{96}$|^[0-9a-f]{128}$/i, "must be a SHA-2 digest in hex"),
    fileUrl: iri.optional(),
  })
  .strict();

const core = {
  actor,
  verb,
  result: result.optional(),
  context: context.optional(),
  timestamp: timestamp.optional(),
  attachments: z.array(attachment).optional(),
};

const subStatement = z
  .object({ objectType: z.literal("SubStatement"), ...core, object: z.union([activity, objectAgent, group, statementRef]) })
  .strict();

/** A statement as a client sends it (the LRS fills in what it leaves out: statements.server.ts). */
export const statement = z
  .object({
    id: uuid.optional(),
    ...core,
    object: z.union([activity, objectAgent, group, statementRef, subStatement]),
    stored: timestamp.optional(),
    // An Agent, or the two Agents of an OAuth consumer and user as an anonymous Group.
    authority: z
      .union([agent, z.object({ objectType: z.literal("Group"), name: z.string().optional(), member: z.array(agent).length(2) }).strict()])
      .optional(),
    version: z
      .string()
      .regex(/^(1\.0(\.\d+)?|2\.0(\.\d+)?)$/, "must be a 1.0.x or 2.0.x version")
      .optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    const kind = (value.object as { objectType?: string }).objectType ?? "Activity";
    // Revision and platform only say something about an activity.
    for (const where of [value, kind === "SubStatement" ? (value.object as typeof value) : null])
      if (where?.context && ((where.object as { objectType?: string }).objectType ?? "Activity") !== "Activity")
        for (const key of ["revision", "platform"] as const)
          if (where.context[key] !== undefined)
            ctx.addIssue({ code: "custom", path: ["context", key], message: `context.${key} needs an Activity object` });
  });

export type Statement = z.infer<typeof statement>;
