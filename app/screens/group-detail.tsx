import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ErrorList, useZodForm } from "~/components/form";
import { GroupMembers } from "~/components/group-members";
import { addRule, describeRules, removeRule } from "~/models/group-rules.server";
import { attachCourses, coursesNotInGroup, detachCourse, groupCourseList } from "~/models/group-courses.server";
import { listGroupChoices, saveGroup } from "~/models/group.server";
import { groupMemberList } from "~/models/group-member-list.server";
import { GROUP_MEMBER_LIST } from "~/models/forms/group-member-list";
import { isWholeList, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { recomputeGroup } from "~/models/group-rule-members.server";
import { addToGroupByEmail, changeGroupAdmin, removeFromGroup } from "~/models/group-membership.server";
import type { Viewer } from "~/access/viewer";
import type { TenantConn } from "~/models/database.server";
import { GROUP_RULE_FIELDS } from "~/models/vocabulary";
import { groupFormSchema, ruleFormSchema } from "~/models/forms/groups";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm, text } from "~/utils/form-data.server";
import { parseForm } from "~/utils/form";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";
import { groupFormDefaults, groupFrom, groupsBase, GroupFields, imageChoices } from "./groups";

/** A group's page (docs/product.md §2 groups/{groupId}): its fields, rules, courses, members and admins. */
const PERSON_FIELDS = GROUP_RULE_FIELDS.filter((f) => f !== "completed_course" && f !== "member_of_group");

/**
 * The group's members as a list (issue 50; app/models/group-member-list.server.ts), searched, filtered, sorted and
 * paged from the page's address; `base` is the group's page. Shared with the group admin's screen.
 */
export function membersPage(db: TenantConn, viewer: Viewer, groupId: number, request: Request, base: string) {
  const { query, errors } = parseListQuery(new URL(request.url), GROUP_MEMBER_LIST);
  const list = groupMemberList(db, groupId, query);
  return {
    items: list.rows,
    total: list.total,
    courseTotal: list.courseTotal,
    lessonTotal: list.lessonTotal,
    page: list.page,
    pages: list.pages,
    perPage: list.perPage,
    base,
    query: { ...query, page: list.page },
    errors,
    filtered: !isWholeList(query, GROUP_MEMBER_LIST),
    locale: dateLocaleFor(viewer),
  };
}

/**
 * The member intents, shared with the group admin's screen: add by e-mail, remove; and (organization
 * admins only) make or unmake a group admin. Whom the viewer may add or remove is app/access/rules.ts's
 * answer (issue 44: a group admin adds only people they already manage), and each change is audited
 * (app/models/group-membership.server.ts). Returns an error key for the form when nothing was done.
 */
export function memberIntent(
  db: TenantConn,
  viewer: Viewer,
  groupId: number,
  formData: FormData,
  { canSetAdmin }: { canSetAdmin: boolean },
): { done: boolean; error?: string } {
  const intent = text(formData, "intent");
  if (intent === "add-member") {
    const error = addToGroupByEmail(db, viewer, groupId, text(formData, "email") ?? "", "page");
    return error ? { done: false, error } : { done: true };
  }
  const userId = Number(text(formData, "userId"));
  const valid = Number.isSafeInteger(userId) && userId > 0;
  let changed: boolean | null = null;
  if (intent === "remove-member") {
    // A group admin does not remove another admin of the group (nor themselves): that is the organization's call.
    changed = valid ? removeFromGroup(db, viewer, groupId, userId, "page") : null;
  } else if ((intent === "make-admin" || intent === "unmake-admin") && canSetAdmin) {
    changed = valid ? changeGroupAdmin(db, viewer, groupId, userId, intent === "make-admin", "page") : null;
  } else {
    throw new Response("Bad Request", { status: 400 });
  }
  if (changed === null) return { done: false, error: "groups.errors.notMember" };
  if (!changed) throw new Response("Forbidden", { status: 403 });
  return { done: true };
}

export function groupLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, (m) => {
      const group = groupFrom(m, params.groupId);
      return {
        base: groupsBase(m),
        group: {
          id: group.id,
          name: group.name,
          description: group.description,
          coverFileId: group.coverFileId,
          ruleMatch: group.ruleMatch,
        },
        images: imageChoices(m),
        rules: describeRules(m.db, group.id),
        courses: groupCourseList(m.db, group.id),
        otherCourses: coursesNotInGroup(m.db, group.id),
        otherGroups: listGroupChoices(m.db, m.viewer)
          .filter((g) => g.id !== group.id)
          .map((g) => ({ id: g.id, name: g.name })),
        members: membersPage(m.db, m.viewer, group.id, request, `${groupsBase(m)}/${group.id}`),
      };
    });
}

/** Which form of the page answered: a conform reply (the group's fields, the rules) or the errors of a button's intent. */
type ActionData = { form: string; result?: SubmissionResult<string[]>; errors?: Record<string, string[] | undefined> };

export function groupAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, async (m) => {
      const group = groupFrom(m, params.groupId);
      const here = `${groupsBase(m)}/${group.id}`;
      const formData = await readForm(request, context);
      const intent = text(formData, "intent");
      const fail = (form: string, errors: ActionData["errors"]) => json<ActionData>({ form, errors }, { status: 400 });
      const invalid = (form: string, result: SubmissionResult<string[]>) => json<ActionData>({ form, result }, { status: 400 });
      switch (intent) {
        case "save": {
          const submission = parseForm(formData, groupFormSchema);
          if (submission.status !== "success") return invalid("save", submission.reply());
          const saved = saveGroup(m.db, group.id, submission.value);
          if (!saved) throw new Response("Not Found", { status: 404 });
          if (!saved.ok) return invalid("save", submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }));
          return redirectWithFlash(here, "groups.flash.saved");
        }
        case "add-rule": {
          const form = `rule-${text(formData, "kind") === "course" ? "course" : text(formData, "kind") === "group" ? "group" : "person"}`;
          const submission = parseForm(formData, ruleFormSchema);
          if (submission.status !== "success") return invalid(form, submission.reply());
          const added = addRule(m.db, group.id, submission.value);
          if (!added.ok) return invalid(form, submission.reply({ fieldErrors: { [added.field]: [added.message] } }));
          return redirectWithFlash(here, "groups.flash.saved");
        }
        case "remove-rule":
          removeRule(m.db, group.id, Number(text(formData, "ruleId")));
          return redirectWithFlash(here, "groups.flash.saved");
        case "recompute":
          recomputeGroup(m.db, group.id);
          return redirectWithFlash(here, "groups.flash.recomputed");
        case "attach-course": {
          const courseId = Number(text(formData, "courseId"));
          if (!attachCourses(m.db, group.id, Number.isSafeInteger(courseId) ? [courseId] : []))
            return fail("courses", { courseId: ["validation.invalidOption"] });
          return redirectWithFlash(here, "groups.flash.saved");
        }
        case "detach-course":
          detachCourse(m.db, group.id, Number(text(formData, "courseId")));
          return redirect(here);
        default: {
          const result = memberIntent(m.db, m.viewer, group.id, formData, { canSetAdmin: true });
          if (!result.done) return fail("members", { email: [result.error!] });
          return redirectWithFlash(here, "groups.flash.membersChanged");
        }
      }
    });
}

/** One of the rule forms, read with the rule's schema; its reply only when it was this form that was sent. */
function useRuleForm(id: string, action?: ActionData) {
  return useZodForm({ id, schema: ruleFormSchema, lastResult: action?.form === id ? action.result : undefined });
}

function RuleForms({ data, action }: { data: GroupData; action?: ActionData }) {
  const { t } = useTranslation();
  const [personForm, person] = useRuleForm("rule-person", action);
  const [courseForm, course] = useRuleForm("rule-course", action);
  const [groupForm, group] = useRuleForm("rule-group", action);
  return (
    <div className="group-rule-forms">
      <Form method="post" className="subform" data-testid="rule-person" {...getFormProps(personForm)}>
        <input type="hidden" name="intent" value="add-rule" />
        <input type="hidden" name="kind" value="person" />
        <h4>{t("groups.rules.personTitle")}</h4>
        <div className="group-rule-row">
          <select name="field" aria-label={t("groups.rules.field")} defaultValue={str(person.field.initialValue)} key={person.field.key}>
            {PERSON_FIELDS.map((f) => (
              <option key={f} value={f}>
                {t(`groups.rules.fields.${f}`)}
              </option>
            ))}
          </select>
          <select
            name="operator"
            aria-label={t("groups.rules.operator")}
            defaultValue={str(person.operator.initialValue)}
            key={person.operator.key}
          >
            {["equals", "not_equals", "contains", "starts_with", "ends_with", "before", "after"].map((o) => (
              <option key={o} value={o}>
                {t(`groups.rules.operators.${o}`)}
              </option>
            ))}
          </select>
          <input
            name="value"
            aria-label={t("groups.rules.value")}
            placeholder={t("groups.rules.valuePlaceholder")}
            maxLength={254}
            required
            defaultValue={str(person.value.initialValue)}
            key={person.value.key}
            aria-invalid={person.value.errors ? true : undefined}
          />
          <button type="submit" data-testid="add-person-rule">
            {t("groups.rules.add")}
          </button>
        </div>
        <p className="hint">
          {t("groups.rules.personHint", { languages: LANGUAGES.map((l) => `${l} (${LANGUAGE_NAMES[l]})`).join(", ") })}
        </p>
        <ErrorList
          errors={[
            ...(person.field.errors ?? []),
            ...(person.operator.errors ?? []),
            ...(person.value.errors ?? []),
            ...(personForm.errors ?? []),
          ]}
        />
      </Form>
      <Form method="post" className="subform" {...getFormProps(courseForm)}>
        <input type="hidden" name="intent" value="add-rule" />
        <input type="hidden" name="kind" value="course" />
        <h4>{t("groups.rules.courseTitle")}</h4>
        <div className="group-rule-row">
          <select name="operator" aria-label={t("groups.rules.operator")}>
            <option value="is">{t("groups.rules.operators.completed")}</option>
            <option value="is_not">{t("groups.rules.operators.notCompleted")}</option>
          </select>
          <select name="courseId" aria-label={t("groups.rules.fields.completed_course")} required>
            {[...data.courses, ...data.otherCourses].map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
          <button type="submit">{t("groups.rules.add")}</button>
        </div>
        <ErrorList errors={[...(course.operator.errors ?? []), ...(course.value.errors ?? []), ...(courseForm.errors ?? [])]} />
      </Form>
      {data.otherGroups.length ? (
        <Form method="post" className="subform" {...getFormProps(groupForm)}>
          <input type="hidden" name="intent" value="add-rule" />
          <input type="hidden" name="kind" value="group" />
          <h4>{t("groups.rules.groupTitle")}</h4>
          <div className="group-rule-row">
            <select name="operator" aria-label={t("groups.rules.operator")}>
              <option value="is">{t("groups.rules.operators.memberOf")}</option>
              <option value="is_not">{t("groups.rules.operators.notMemberOf")}</option>
            </select>
            <select name="otherGroupId" aria-label={t("groups.rules.fields.member_of_group")} required>
              {data.otherGroups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
            <button type="submit">{t("groups.rules.add")}</button>
          </div>
          <ErrorList errors={[...(group.operator.errors ?? []), ...(group.value.errors ?? []), ...(groupForm.errors ?? [])]} />
        </Form>
      ) : null}
    </div>
  );
}

const str = (value: unknown) => (typeof value === "string" ? value : undefined);

type GroupData = ReturnType<ReturnType<typeof groupLoader>> extends Promise<infer T> ? T : never;

export function GroupDetail() {
  const { t } = useTranslation();
  const data = useLoaderData<GroupData>();
  const action = useActionData<ActionData>();
  const errors = (form: string): Record<string, string[] | undefined> => (action?.form === form ? (action.errors ?? {}) : {});
  const [form, fields] = useZodForm({
    id: "group-save",
    schema: groupFormSchema,
    lastResult: action?.form === "save" ? action.result : undefined,
    defaultValue: groupFormDefaults(data.group),
  });
  return (
    <section className="group-page">
      <div className="toolbar">
        <h2>{data.group.name}</h2>
        {/* Assigning courses to the group with a due date (issue 34): app/screens/assignments.tsx. */}
        <Link to={`${data.base}/${data.group.id}/assignments`} className="button" data-testid="group-assignments">
          {t("assigning.link")}
        </Link>
        <Link to={data.base}>{t("groups.back")}</Link>
      </div>
      <div className="group-columns">
        <div>
          <Form method="post" className="panel" {...getFormProps(form)}>
            <h3>{t("groups.details")}</h3>
            <input type="hidden" name="intent" value="save" />
            <GroupFields fields={fields} images={data.images} />
            <button type="submit" className="primary" data-testid="save-group">
              {t("groups.save")}
            </button>
          </Form>
          <div className="panel" data-testid="group-rules">
            <div className="toolbar">
              <h3>{t("groups.rules.title")}</h3>
              <Form method="post" className="inline-form">
                <button type="submit" name="intent" value="recompute" data-testid="recompute">
                  {t("groups.rules.recompute")}
                </button>
              </Form>
            </div>
            {data.rules.length === 0 ? (
              <p className="empty-state">{t("groups.rules.empty")}</p>
            ) : (
              <>
                <p className="hint">{t(`groups.match.${data.group.ruleMatch}`)}</p>
                <ul className="plain-list group-rules">
                  {data.rules.map((r) => (
                    <li key={r.id} data-rule={`${r.field} ${r.operator} ${r.value}`}>
                      <span className="group-rule">
                        <strong>{t(`groups.rules.fields.${r.field}`)}</strong> {t(`groups.rules.operators.${r.operator}`)}{" "}
                        <code>{r.value}</code>
                      </span>
                      <Form method="post" className="inline-form">
                        <input type="hidden" name="ruleId" value={r.id} />
                        <button type="submit" name="intent" value="remove-rule" aria-label={t("groups.rules.remove")}>
                          {t("groups.rules.remove")}
                        </button>
                      </Form>
                    </li>
                  ))}
                </ul>
              </>
            )}
            <RuleForms data={data} action={action} />
          </div>
          <div className="panel" data-testid="group-courses">
            <h3>{t("groups.courses.title")}</h3>
            {data.courses.length === 0 ? (
              <p className="empty-state">{t("groups.courses.empty")}</p>
            ) : (
              <ul className="plain-list">
                {data.courses.map((c) => (
                  <li key={c.id} data-course={c.title}>
                    {c.title} {c.forceGroups ? <span className="badge">{t("groups.courses.forced")}</span> : null}
                    <Form method="post" className="inline-form">
                      <input type="hidden" name="courseId" value={c.id} />
                      <button type="submit" name="intent" value="detach-course">
                        {t("groups.courses.detach")}
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            )}
            {data.otherCourses.length ? (
              <Form method="post" className="inline-form">
                <input type="hidden" name="intent" value="attach-course" />
                <select name="courseId" aria-label={t("groups.courses.choose")}>
                  {data.otherCourses.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.title}
                    </option>
                  ))}
                </select>
                <button type="submit" data-testid="attach-course">
                  {t("groups.courses.attach")}
                </button>
                <ErrorList errors={errors("courses").courseId} />
              </Form>
            ) : null}
            <p className="hint">{t("groups.courses.hint")}</p>
          </div>
        </div>
        <div>
          <GroupMembers members={data.members} canSetAdmin errors={errors("members").email} />
          <div className="panel danger-zone">
            <Link to={`${data.base}/${data.group.id}/delete`} className="button danger" data-testid="delete-group">
              {t("groups.delete")}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
