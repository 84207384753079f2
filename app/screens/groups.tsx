import { getFormProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ConfirmDelete } from "~/components/confirm-delete";
import { controlProps, ErrorList, useZodForm } from "~/components/form";
import { listFiles } from "~/models/file.server";
import { deleteGroup, getGroup, saveGroup } from "~/models/group.server";
import { groupList } from "~/models/group-list.server";
import { GROUP_LIST } from "~/models/forms/group-list";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { isWholeList, listSearch, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { groupFormSchema, type GroupForm } from "~/models/forms/groups";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { readForm } from "~/utils/form-data.server";

/**
 * Groups (docs/product.md §2 dashboard "groups" tab, groups/create, groups/{groupId}; docs/product.md §3 Group), for organization
 * admins. The group admins' own screen is screens/group-admin.tsx.
 */
export const groupsBase = (m: Managed) => `${m.base}/groups`;

/** The groups list (issue 50): searched, filtered, sorted and paged from its address (app/utils/list-query.ts). */
export function groupsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, (m) => {
      const { query, errors } = parseListQuery(new URL(request.url), GROUP_LIST);
      const list = groupList(m.db, m.viewer, query);
      return {
        base: groupsBase(m),
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        filtered: !isWholeList(query, GROUP_LIST),
        locale: dateLocaleFor(m.viewer),
        groups: list.rows,
      };
    });
}

export function Groups() {
  const { t } = useTranslation();
  const data = useLoaderData<ReturnType<ReturnType<typeof groupsLoader>> extends Promise<infer T> ? T : never>();
  return (
    <section>
      <div className="toolbar">
        <h2>{t("groups.title")}</h2>
        <Link to={`${data.base}/create`} className="button primary" data-testid="create-group">
          {t("groups.create")}
        </Link>
      </div>
      {data.page.total === 0 && !data.filtered ? (
        <p className="empty-state panel">{t("groups.empty")}</p>
      ) : (
        <>
          <ListControls
            id="groups-list"
            label={t("lists.groups.label")}
            searchLabel={t("groups.search")}
            query={data.query}
            filters={[
              {
                name: "kind",
                label: t("lists.groups.kind"),
                any: t("lists.groups.anyKind"),
                options: [
                  { value: "rules", label: t("groups.kind.rules") },
                  { value: "manual", label: t("groups.kind.manual") },
                ],
              },
            ]}
            sorts={GROUP_LIST.sorts.map((s) => ({ value: s, label: t(`lists.groups.${s}`) }))}
            errors={data.errors}
            clear={data.base}
          />
          {data.groups.length > 0 && (
            <ul className="course-grid" data-testid="groups">
              {data.groups.map((g) => (
                <li key={g.id} className="course-card group-card" data-group={g.name}>
                  <span className="course-type">{g.rules > 0 ? t("groups.kind.rules") : t("groups.kind.manual")}</span>
                  <h3 className="course-title">
                    <Link to={`${data.base}/${g.id}`}>{g.name}</Link>
                  </h3>
                  {g.description ? <p className="course-description">{g.description}</p> : null}
                  <p className="course-meta">
                    {t("groups.counts", { members: g.members, courses: g.courses })}
                    {g.rules > 0 ? ` · ${t("groups.ruleCount", { count: g.rules })}` : ""}
                  </p>
                </li>
              ))}
            </ul>
          )}
          <ListPager
            {...data.page}
            shown={data.groups.length}
            locale={data.locale}
            link={(n) => `${data.base}${listSearch(data.query, GROUP_LIST, { page: n })}`}
            label={t("lists.pages")}
          />
        </>
      )}
    </section>
  );
}

export function imageChoices(m: Managed) {
  return listFiles(m.db, { page: { page: 1, perPage: 200 } })
    .items.filter((f) => f.kind === "image")
    .map((f) => ({ id: f.id, name: f.name }));
}

export function createGroupLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, (m) => ({
      base: groupsBase(m),
      images: imageChoices(m),
    }));
}

export function createGroupAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, async (m) => {
      const submission = parseForm(await readForm(request, context), groupFormSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const saved = saveGroup(m.db, null, submission.value);
      if (!saved?.ok) return json(submission.reply({ fieldErrors: saved ? { [saved.field]: [saved.message] } : {} }), { status: 400 });
      return redirectWithFlash(`${groupsBase(m)}/${saved.group.id}`, "groups.flash.saved");
    });
}

/** The group's own fields as the form shows them: the group's values, or none for a new group. */
export function groupFormDefaults(values?: Partial<GroupForm>) {
  return {
    name: values?.name ?? "",
    description: values?.description ?? "",
    coverFileId: values?.coverFileId ? String(values.coverFileId) : "",
    ruleMatch: values?.ruleMatch ?? "all",
  };
}

type GroupFieldsMeta = ReturnType<typeof useZodForm<typeof groupFormSchema>>[1];

/** Name, description, cover and how rules combine: the group's own fields (create and detail pages). */
export function GroupFields({ fields, images }: { fields: GroupFieldsMeta; images: Array<{ id: number; name: string }> }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="field">
        <label htmlFor="group-name">{t("groups.fields.name")}</label>
        <input {...controlProps(fields.name, "group-name")} key={fields.name.key} maxLength={120} required />
        <ErrorList id="group-name-error" errors={fields.name.errors} />
      </div>
      <div className="field">
        <label htmlFor="group-description">{t("groups.fields.description")}</label>
        <textarea {...controlProps(fields.description, "group-description")} key={fields.description.key} maxLength={2000} rows={3} />
        <ErrorList id="group-description-error" errors={fields.description.errors} />
      </div>
      <div className="field">
        <label htmlFor="group-cover">{t("groups.fields.cover")}</label>
        <select {...controlProps(fields.coverFileId, "group-cover")} key={fields.coverFileId.key}>
          <option value="">—</option>
          {images.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        <ErrorList id="group-cover-error" errors={fields.coverFileId.errors} />
      </div>
      <div className="field">
        <label htmlFor="group-match">{t("groups.fields.ruleMatch")}</label>
        <select {...controlProps(fields.ruleMatch, "group-match")} key={fields.ruleMatch.key}>
          <option value="all">{t("groups.match.all")}</option>
          <option value="any">{t("groups.match.any")}</option>
        </select>
        <ErrorList id="group-match-error" errors={fields.ruleMatch.errors} />
      </div>
    </>
  );
}

export function CreateGroup() {
  const { t } = useTranslation();
  const { base, images } = useLoaderData<{ base: string; images: Array<{ id: number; name: string }> }>();
  const [form, fields] = useZodForm({ schema: groupFormSchema, lastResult: useActionData(), defaultValue: groupFormDefaults() });
  return (
    <section>
      <h2>{t("groups.create")}</h2>
      <Form method="post" className="panel" {...getFormProps(form)}>
        <GroupFields fields={fields} images={images} />
        <p className="hint">{t("groups.createHint")}</p>
        <button type="submit" className="primary" data-testid="save-group">
          {t("groups.save")}
        </button>{" "}
        <Link to={base}>{t("confirm.cancel")}</Link>
      </Form>
    </section>
  );
}

export function groupFrom(m: Managed, id: string | undefined) {
  const group = /^\d{1,15}$/.test(id ?? "") ? getGroup(m.db, Number(id)) : undefined;
  if (!group) throw new Response("Not Found", { status: 404 });
  return group;
}

export function deleteGroupLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, (m) => {
      const group = groupFrom(m, params.groupId);
      return { name: group.name, back: `${groupsBase(m)}/${group.id}` };
    });
}

export function deleteGroupAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, async (m) => {
      const group = groupFrom(m, params.groupId);
      await readForm(request, context);
      deleteGroup(m.db, group.id);
      return redirectWithFlash(groupsBase(m), "groups.flash.deleted");
    });
}

export function DeleteGroup() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}
