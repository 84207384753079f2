import { and, asc, count, eq, inArray, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { groupMembers, users, type User } from "../../db/tenant";
import { LANGUAGES } from "../utils/i18n";
import type { Page } from "../utils/pagination";
import type { Resource } from "./resource";
import { manageableGroupIds } from "../access/rules";
import type { Viewer } from "../access/viewer";
import type { TenantDb } from "../../db/open";
import { contains } from "../utils/pagination";
import { ASSIGNABLE_ROLES, type UserForm, type UserPatch } from "./user.server";

/** A user as /api lists them (docs/product.md §2: name, e-mail and type). Never the password hash. */
export function userView(user: User) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    phone: user.phone,
    language: user.language,
    type: user.role,
    managed_externally: user.managedExternally,
    disabled: user.disabledAt !== null,
    created_at: user.createdAt.toISOString(),
  };
}
export type UserView = ReturnType<typeof userView>;

/**
 * Whom a viewer may see: an organization admin sees everyone; a group admin only the members of the
 * groups it administers (docs/product.md §6 "groups have admins who manage the group").
 */
function visibleUsers(db: TenantDb, viewer: Viewer): SQL | undefined {
  const groupIds = manageableGroupIds(viewer);
  if (groupIds === null) return undefined;
  if (groupIds.length === 0) return eq(users.id, -1);
  const members = db
    .select({ id: groupMembers.userId })
    .from(groupMembers)
    .where(inArray(groupMembers.groupId, [...groupIds]));
  return inArray(users.id, members);
}

function pageOf(db: TenantDb, viewer: Viewer, where: SQL | undefined, page: Page) {
  const items = db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all()
    .map(userView);
  const total = db.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  return { items, total };
}

/** The users a viewer may read, a page at a time (lists and the CSV export). */
export function listVisibleUsers(db: TenantDb, viewer: Viewer, page: Page) {
  return pageOf(db, viewer, visibleUsers(db, viewer), page);
}

/* ---------- writes through /api: the reply's own field names ---------- */

const nameField = z.string().trim().max(100);
/** A role as the reply's `type` shows it (null: no role here) or as the screen names it ("none"). */
const roleField = z.enum(ASSIGNABLE_ROLES, { errorMap: () => ({ message: "validation.invalidOption" }) }).nullable();

/**
 * What `POST /api/users` and `PUT /api/users/{id}` take: the fields of `userView`, by the same names, so that
 * a reply can be sent back as it came. Its other fields (id, managed_externally, disabled, created_at) are
 * not written here and are dropped like any unknown field. `firstName`, `lastName` and `role` are the names
 * these calls took before; they are still read, so that older scripts keep working.
 */
const userWriteFields = z
  .object({
    email: z.string({ required_error: "validation.required" }).trim().max(254).email("validation.email"),
    first_name: nameField,
    last_name: nameField,
    phone: z.string().trim().max(40).nullable().describe('null or "" clears it'),
    language: z
      .enum(["", ...LANGUAGES])
      .nullable()
      .describe('null or "": the organization\'s default'),
    type: roleField.describe("learner, admin, or none (also null): the role here, as the reply's `type`"),
    firstName: nameField.describe("the older name of first_name"),
    lastName: nameField.describe("the older name of last_name"),
    role: roleField.describe("the older name of type"),
  })
  .partial();
type UserWriteFields = z.infer<typeof userWriteFields>;

/** Each field's older name beside its name in the replies. */
const OLDER_NAMES = [
  ["first_name", "firstName"],
  ["last_name", "lastName"],
  ["type", "role"],
] as const;

const roleOf = (value: UserWriteFields["type"]) => (value === "none" ? null : value);

/** A field sent under both its names must say the same thing both times: which one was meant is not a guess to make. */
function oneValuePerField(input: UserWriteFields, ctx: z.RefinementCtx) {
  for (const [name, older] of OLDER_NAMES) {
    const [a, b] = name === "type" ? [roleOf(input.type), roleOf(input.role)] : [input[name], input[older]];
    if (a !== undefined && b !== undefined && a !== b)
      ctx.addIssue({ code: "custom", path: [older], message: "validation.sameFieldTwice" });
  }
}

/** The fields sent, as the model names them; what was not sent is not there (and keeps its value). */
function toPatch(input: UserWriteFields): UserPatch {
  const patch: UserPatch = {};
  if (input.email !== undefined) patch.email = input.email;
  const firstName = input.first_name ?? input.firstName;
  if (firstName !== undefined) patch.firstName = firstName;
  const lastName = input.last_name ?? input.lastName;
  if (lastName !== undefined) patch.lastName = lastName;
  if (input.phone !== undefined) patch.phone = input.phone || null;
  if (input.language !== undefined) patch.language = input.language || null;
  const role = input.type !== undefined ? input.type : input.role;
  if (role !== undefined) patch.role = roleOf(role);
  return patch;
}

/** `PUT /api/users/{id}`: any of the fields; only those sent change. */
export const userUpdateSchema = userWriteFields.superRefine(oneValuePerField).transform(toPatch);

/** `POST /api/users`: an e-mail address and a role (`type`, or `role`) at least; names, phone and language may wait. */
export const userCreateSchema = userWriteFields
  .required({ email: true })
  .superRefine((input, ctx) => {
    oneValuePerField(input, ctx);
    if (input.type === undefined && input.role === undefined)
      ctx.addIssue({ code: "custom", path: ["type"], message: "validation.required" });
  })
  .transform(
    (input): UserForm => ({
      firstName: "",
      lastName: "",
      phone: null,
      language: null,
      role: null,
      email: input.email,
      ...toPatch(input),
    }),
  );

/** Users of the organization. Writes are declared on their own (app/api/calls/users.server.ts): they check who may give which role. */
export const userResource: Resource<UserView, typeof userCreateSchema, typeof userUpdateSchema> = {
  read: "read:user",
  write: "write:user",
  createSchema: userCreateSchema,
  updateSchema: userUpdateSchema,
  list: (db, viewer, page) => listVisibleUsers(db, viewer, page),
  search: (db, viewer, q, page) => {
    return pageOf(
      db,
      viewer,
      and(visibleUsers(db, viewer), or(contains(users.email, q), contains(users.firstName, q), contains(users.lastName, q))),
      page,
    );
  },
  get: (db, viewer, id) => {
    const row = db
      .select()
      .from(users)
      .where(and(eq(users.id, id), visibleUsers(db, viewer)))
      .get();
    return row ? userView(row) : null;
  },
};
