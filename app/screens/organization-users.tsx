import { getFormProps, getSelectProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation, type Translate } from "~/utils/translate";
import { ConfirmDelete } from "~/components/confirm-delete";
import { ErrorList, Field, useZodForm } from "~/components/form";
import { ASSIGNABLE_ROLES, userFormSchema } from "~/models/forms/users";
import { organizationRealm } from "~/models/auth/realm.server";
import { revokeSessionsOf } from "~/models/auth/session.server";
import { inviteUser } from "~/models/provision.server";
import { getUser } from "~/models/user.server";
import { deleteUserAudited, editUserAudited, setUserDisabledAudited } from "~/models/user-audited.server";
import { userList, userListGroups } from "~/models/user-list.server";
import { SEEN, USER_LIST } from "~/models/forms/user-list";
import { formatDate } from "~/utils/dates";
import { ListControls, ListPager, type ListFilter } from "~/components/list/list-controls";
import { isWholeList, listSearch, PAGE_SIZES, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { Heading } from "~/components/heading";
import { PeopleBulkStart, PersonTick } from "./people-bulk";
import { readForm } from "~/utils/form-data.server";

/**
 * The users of one organization (docs/product.md §2: a table of name, e-mail and type; add, settings, delete),
 * built once and mounted under /admin/organizations/{id}/users, /dashboard/organizations/{id}/users and
 * /dashboard/users.
 */
export interface UsersMount {
  area: Area;
  /** Where the users screens of this mount live. */
  usersBase: (managed: Managed) => string;
}

/** The CSV of the people the list's search and filters match. */
function exportOf(query: { q: string; filters: Record<string, string | undefined> }) {
  const search = new URLSearchParams(Object.entries({ q: query.q, ...query.filters }).filter((e): e is [string, string] => Boolean(e[1])));
  return `/api/users/export${search.size ? `?${search}` : ""}`;
}

/** The people list (issue 50): searched, filtered, sorted and paged from its address (app/utils/list-query.ts). */
export function usersListLoader(mount: UsersMount) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "read:user" }, (managed) => {
      const { query, errors } = parseListQuery(new URL(request.url), USER_LIST);
      const list = userList(managed.db, query);
      return {
        base: mount.usersBase(managed),
        // The list as it is filtered, as CSV (`GET /api/users/export` takes the same search and filters).
        exportUrl: managed.area === "dashboard" ? exportOf(query) : null,
        dashboard: managed.area === "dashboard", // groups and import (issue 14): CSV import and settings live there
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        filtered: !isWholeList(query, USER_LIST),
        groups: userListGroups(managed.db),
        locale: dateLocaleFor(managed.viewer),
        users: list.rows.map(({ user: u, lastActive }) => ({
          id: u.id,
          name: [u.firstName, u.lastName].filter(Boolean).join(" "),
          email: u.email,
          role: u.role,
          disabled: u.disabledAt !== null,
          // Written out by the server, in the viewer's language (app/utils/dates.ts).
          lastActive: lastActive === null ? null : formatDate(lastActive, { locale: dateLocaleFor(managed.viewer) }),
        })),
      };
    });
}

export function UsersList() {
  const { t } = useTranslation();
  const data = useLoaderData<ReturnType<ReturnType<typeof usersListLoader>> extends Promise<infer T> ? T : never>();
  return (
    <section>
      <div className="toolbar">
        <Heading>{t("users.title")}</Heading>
        <Link to={`${data.base}/create`} className="button primary" data-testid="add-user">
          {t("users.add")}
        </Link>
        {data.exportUrl ? (
          <a href={data.exportUrl} className="button" download>
            {t("users.export")}
          </a>
        ) : null}
        {data.dashboard ? (
          <>
            <Link to="/dashboard/users/import" className="button" data-testid="import-users">
              {t("import.open")}
            </Link>
            <Link to="/dashboard/users/settings" className="button" data-testid="user-settings-link">
              {t("import.settings.open")}
            </Link>
            <Link to="/dashboard/users/audit" className="button" data-testid="audit-link">
              {t("audit.open")}
            </Link>
          </>
        ) : null}
      </div>
      {data.page.total === 0 && !data.filtered ? (
        <p className="empty-state">{t("users.empty")}</p>
      ) : (
        <>
          <ListControls
            id="users-list"
            label={t("lists.users.label")}
            searchLabel={t("admin.searchLabel")}
            query={data.query}
            filters={userFilters(t, data.groups)}
            sorts={USER_LIST.sorts.map((s) => ({ value: s, label: t(`lists.users.${s}`) }))}
            errors={data.errors}
            clear={data.base}
          />
          {data.dashboard && data.page.total > 0 ? (
            <PeopleBulkStart total={data.page.total} filters={{ q: data.query.q, ...data.query.filters }} locale={data.locale} />
          ) : null}
          {data.users.length > 0 && (
            <div className="table-scroll">
              <table className="table" data-testid="users">
                <thead>
                  <tr>
                    {data.dashboard ? <th className="tick">{t("bulk.tickColumn")}</th> : null}
                    <th>{t("users.name")}</th>
                    <th>{t("users.email")}</th>
                    <th>{t("users.type")}</th>
                    <th>{t("lists.users.seen")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.users.map((u) => (
                    <tr key={u.id} data-email={u.email}>
                      {data.dashboard ? (
                        <td className="tick">
                          <PersonTick id={u.id} name={u.name || u.email} />
                        </td>
                      ) : null}
                      <td>
                        <Link to={`${data.base}/${u.id}/overview`}>{u.name || u.email}</Link>
                        {u.disabled ? <span className="badge">{t("admin.disabled")}</span> : null}
                      </td>
                      <td>{u.email}</td>
                      <td>{t(`users.roles.${u.role ?? "none"}`)}</td>
                      <td>{u.lastActive ?? t("lists.users.never")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ListPager
            {...data.page}
            shown={data.users.length}
            locale={data.locale}
            link={(n) => `${data.base}${listSearch(data.query, USER_LIST, { page: n })}`}
            label={t("lists.pages")}
          />
        </>
      )}
    </section>
  );
}

const NEWEST_FIRST = { q: "", filters: {}, sort: "created", dir: "desc", page: 1, perPage: PAGE_SIZES[0] } as const;

/** The people list's filters, with their choices. */
function userFilters(t: Translate, groups: { id: number; name: string }[]): ListFilter[] {
  return [
    {
      name: "role",
      label: t("users.type"),
      any: t("lists.users.anyRole"),
      options: (["admin", "learner", "none"] as const).map((r) => ({ value: r, label: t(`users.roles.${r}`) })),
    },
    {
      name: "group",
      label: t("lists.users.group"),
      any: t("lists.users.anyGroup"),
      options: groups.map((g) => ({ value: String(g.id), label: g.name })),
    },
    {
      name: "status",
      label: t("lists.users.status"),
      any: t("lists.users.anyStatus"),
      options: [
        { value: "active", label: t("lists.users.active") },
        { value: "disabled", label: t("admin.disabled") },
      ],
    },
    {
      name: "language",
      label: t("users.language"),
      any: t("lists.users.anyLanguage"),
      options: [...LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] })), { value: "default", label: t("users.languageDefault") }],
    },
    {
      name: "seen",
      label: t("lists.users.seen"),
      any: t("lists.users.anySeen"),
      options: SEEN.map((s) => ({ value: s, label: t(`lists.users.seenChoices.${s}`) })),
    },
  ];
}

function UserFields({ fields }: { fields: ReturnType<typeof useUserForm>[1] }) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={t("users.firstName")} field={fields.firstName} type="text" />
      <Field label={t("users.lastName")} field={fields.lastName} type="text" />
      <Field label={t("users.email")} field={fields.email} type="email" />
      <Field label={t("users.phone")} field={fields.phone} type="text" />
      <div className="field">
        <label htmlFor={fields.role.id}>{t("users.role")}</label>
        <select {...getSelectProps(fields.role)} key={fields.role.key}>
          {ASSIGNABLE_ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`users.roles.${role}`)}
            </option>
          ))}
        </select>
        <ErrorList errors={fields.role.errors} />
      </div>
      <div className="field">
        <label htmlFor={fields.language.id}>{t("users.language")}</label>
        <select {...getSelectProps(fields.language)} key={fields.language.key}>
          <option value="">{t("users.languageDefault")}</option>
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng}>
              {LANGUAGE_NAMES[lng]}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

function useUserForm(lastResult: unknown, defaultValue?: Record<string, string>) {
  return useZodForm({ schema: userFormSchema, lastResult, defaultValue: defaultValue ?? { role: "learner" } });
}

export function createUserLoader(mount: UsersMount) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "write:user" }, (managed) => ({
      base: mount.usersBase(managed),
    }));
}

export function createUserAction(mount: UsersMount) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "write:user" }, async (managed) => {
      const submission = parseForm(await readForm(request, context), userFormSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const added = await inviteUser(context.platform, managed.db, managed.organization, submission.value, {
        viewer: managed.viewer,
        via: "page",
      });
      if (!added.ok) return json(submission.reply({ fieldErrors: added.fields }), { status: 400 });
      // The list newest first, so the person just added is at its top, whatever its size.
      return redirectWithFlash(`${mount.usersBase(managed)}${listSearch(NEWEST_FIRST, USER_LIST)}`, "flash.userCreated");
    });
}

export function CreateUser() {
  const { t } = useTranslation();
  const { base } = useLoaderData<{ base: string }>();
  const [form, fields] = useUserForm(useActionData());
  return (
    <section>
      <Heading>{t("users.create")}</Heading>
      <Form method="post" {...getFormProps(form)} className="panel">
        <UserFields fields={fields} />
        <button type="submit" className="primary" data-testid="save-user">
          {t("users.save")}
        </button>{" "}
        <Link to={base}>{t("confirm.cancel")}</Link>
      </Form>
    </section>
  );
}

function userFrom(managed: Managed, userId: string | undefined) {
  const user = getUser(managed.db, Number(userId));
  if (!user) throw new Response("Not Found", { status: 404 });
  return user;
}

export function editUserLoader(mount: UsersMount) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "write:user" }, (managed) => {
      const user = userFrom(managed, params.userId);
      return {
        base: mount.usersBase(managed),
        isSelf: managed.area === "dashboard" && managed.viewer.person.id === user.id,
        user: {
          id: user.id,
          email: user.email,
          disabled: user.disabledAt !== null,
          values: {
            firstName: user.firstName,
            lastName: user.lastName,
            email: user.email,
            phone: user.phone ?? "",
            role: user.role ?? "none",
            language: user.language ?? "",
          },
        },
      };
    });
}

export function editUserAction(mount: UsersMount) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "write:user" }, async (managed) => {
      const user = userFrom(managed, params.userId);
      const isSelf = managed.area === "dashboard" && managed.viewer.person.id === user.id;
      const formData = await readForm(request, context);
      const intent = formData.get("intent");
      const realm = organizationRealm(managed.db, managed.organization);
      const back = `${mount.usersBase(managed)}/${user.id}`;
      if (intent === "disable" || intent === "enable") {
        if (isSelf) throw new Response("Forbidden", { status: 403 });
        // In the audit when it changes something (issue 50), in the change's own transaction.
        setUserDisabledAudited(managed.db, managed.viewer, "page", user, intent === "disable");
        if (intent === "disable") revokeSessionsOf(realm, user.id);
        return redirectWithFlash(back, "flash.userUpdated");
      }
      if (intent === "sign-out-everywhere") {
        revokeSessionsOf(realm, user.id);
        return redirectWithFlash(back, "flash.signedOutEverywhere");
      }
      if (isSelf) formData.set("role", user.role ?? "none"); // nobody lowers (or locks out) themselves here
      const submission = parseForm(formData, userFormSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const result = editUserAudited(managed.db, managed.viewer, "page", user, submission.value);
      if (!result) throw new Response("Not Found", { status: 404 });
      if (!result.ok) return json(submission.reply({ fieldErrors: result.fields }), { status: 400 });
      return redirectWithFlash(mount.usersBase(managed), "flash.userUpdated");
    });
}

export function EditUser() {
  const { t } = useTranslation();
  const { base, user, isSelf } = useLoaderData<ReturnType<ReturnType<typeof editUserLoader>> extends Promise<infer T> ? T : never>();
  const [form, fields] = useUserForm(useActionData(), user.values);
  return (
    <section>
      <Heading>{t("users.edit")}</Heading>
      <Form method="post" {...getFormProps(form)} className="panel">
        <UserFields fields={fields} />
        <button type="submit" className="primary" data-testid="save-user">
          {t("users.save")}
        </button>{" "}
        <Link to={base}>{t("confirm.cancel")}</Link>
      </Form>
      {isSelf ? null : (
        <div className="panel">
          <Form method="post" className="inline-form">
            <button type="submit" name="intent" value={user.disabled ? "enable" : "disable"}>
              {user.disabled ? t("admin.enable") : t("admin.disable")}
            </button>
          </Form>
          <Form method="post" className="inline-form">
            <button type="submit" name="intent" value="sign-out-everywhere" title={t("admin.signOutEverywhereHint")}>
              {t("admin.signOutEverywhere")}
            </button>
          </Form>
          <Link to={`${base}/${user.id}/delete`} className="button danger" data-testid="delete-user">
            {t("users.delete")}
          </Link>
        </div>
      )}
    </section>
  );
}

export function deleteUserLoader(mount: UsersMount) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "write:user" }, (managed) => {
      const user = userFrom(managed, params.userId);
      if (managed.area === "dashboard" && managed.viewer.person.id === user.id) throw redirect(`${mount.usersBase(managed)}/${user.id}`);
      return {
        name: [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email,
        back: `${mount.usersBase(managed)}/${user.id}`,
      };
    });
}

export function deleteUserAction(mount: UsersMount) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area: mount.area, capability: "write:user" }, async (managed) => {
      const user = userFrom(managed, params.userId);
      if (managed.area === "dashboard" && managed.viewer.person.id === user.id) throw new Response("Forbidden", { status: 403 });
      await readForm(request, context);
      deleteUserAudited(managed.db, managed.viewer, "page", user);
      return redirectWithFlash(mount.usersBase(managed), "flash.userDeleted");
    });
}

export function DeleteUser() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}
