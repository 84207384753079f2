import { Form } from "@remix-run/react";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { GROUP_MEMBER_LIST, type GroupMemberListQuery } from "~/models/forms/group-member-list";
import { listSearch, type ListErrors } from "~/utils/list-query";
import { useTranslation } from "~/utils/translate";
import { ErrorList } from "./form";

export interface MemberRow {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  disabled: boolean;
  isAdmin: boolean;
  source: "manual" | "rule";
  completed: number;
  lessonsDone: number;
}

/** One page of the members list (app/models/group-member-list.server.ts) and its state in the address. */
export interface MembersPage {
  items: MemberRow[];
  total: number;
  courseTotal: number;
  lessonTotal: number;
  page: number;
  pages: number;
  perPage: number;
  /** The group's page, where the list's links go. */
  base: string;
  query: GroupMemberListQuery;
  errors: ListErrors | null;
  filtered: boolean;
  locale: string;
}

/**
 * A group's members with their progress in the group's courses (docs/product.md §6: group admins see their members'
 * progress). Organization admins also make and unmake the group's admins here.
 */
export function GroupMembers({ members, canSetAdmin, errors }: { members: MembersPage; canSetAdmin: boolean; errors?: string[] }) {
  const { t } = useTranslation();
  return (
    <div className="panel" data-testid="group-members">
      <div className="toolbar">
        <h3>{t("groups.members.title", { count: members.total })}</h3>
      </div>
      <Form method="post" className="inline-form group-add-member">
        <input type="hidden" name="intent" value="add-member" />
        <label htmlFor="member-email" className="visually-hidden">
          {t("groups.members.email")}
        </label>
        <input id="member-email" name="email" type="email" placeholder={t("groups.members.email")} required maxLength={254} />
        <button type="submit" data-testid="add-member">
          {t("groups.members.add")}
        </button>
        <ErrorList errors={errors} />
      </Form>
      {members.total > 0 || members.filtered ? <MemberControls members={members} /> : null}
      {members.items.length === 0 ? (
        members.filtered ? null : (
          <p className="empty-state">{t("groups.members.empty")}</p>
        )
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>{t("users.name")}</th>
                <th>{t("groups.members.how")}</th>
                <th>{t("groups.members.progress")}</th>
                <th>
                  <span className="visually-hidden">{t("groups.members.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.items.map((m) => {
                const percent = members.lessonTotal ? Math.round((m.lessonsDone / members.lessonTotal) * 100) : 0;
                return (
                  <tr key={m.id} data-member={m.email}>
                    <td>
                      <span className="user-name">{[m.firstName, m.lastName].filter(Boolean).join(" ") || m.email}</span>
                      {m.disabled ? <span className="badge">{t("admin.disabled")}</span> : null}
                      <br />
                      <small className="hint">{m.email}</small>
                    </td>
                    <td>
                      <span className={`badge group-source-${m.source}`}>{t(`groups.members.source.${m.source}`)}</span>
                      {m.isAdmin ? <span className="badge group-admin-badge">{t("groups.members.admin")}</span> : null}
                    </td>
                    <td>
                      <div
                        className="group-progress"
                        title={t("groups.members.lessons", { done: m.lessonsDone, total: members.lessonTotal })}
                      >
                        <progress max={100} value={percent} aria-label={t("groups.members.progress")} />
                        <small>{t("groups.members.courses", { done: m.completed, total: members.courseTotal })}</small>
                      </div>
                    </td>
                    <td className="actions">
                      {canSetAdmin ? (
                        <Form method="post" className="inline-form">
                          <input type="hidden" name="userId" value={m.id} />
                          <button type="submit" name="intent" value={m.isAdmin ? "unmake-admin" : "make-admin"}>
                            {m.isAdmin ? t("groups.members.unmakeAdmin") : t("groups.members.makeAdmin")}
                          </button>
                        </Form>
                      ) : null}
                      {canSetAdmin || !m.isAdmin ? (
                        <Form method="post" className="inline-form">
                          <input type="hidden" name="userId" value={m.id} />
                          <button type="submit" name="intent" value="remove-member" className="danger" data-testid="remove-member">
                            {t("groups.members.remove")}
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {members.total > 0 || members.filtered ? (
        <ListPager
          page={members.page}
          pages={members.pages}
          total={members.total}
          perPage={members.perPage}
          shown={members.items.length}
          locale={members.locale}
          link={(n) => `${members.base}${listSearch(members.query, GROUP_MEMBER_LIST, { page: n })}`}
          label={t("peopleLists.members.pages")}
        />
      ) : null}
      <p className="hint">{t("groups.members.ruleHint")}</p>
    </div>
  );
}

/** The members list's search, filters, sort and page size (the shared ListControls). */
function MemberControls({ members }: { members: MembersPage }) {
  const { t } = useTranslation();
  return (
    <ListControls
      id="group-members-list"
      label={t("peopleLists.members.label")}
      searchLabel={t("peopleLists.search")}
      query={members.query}
      filters={[
        {
          name: "role",
          label: t("peopleLists.members.role"),
          any: t("peopleLists.members.anyRole"),
          options: [
            { value: "admin", label: t("peopleLists.members.admins") },
            { value: "member", label: t("peopleLists.members.members") },
          ],
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
      ]}
      sorts={GROUP_MEMBER_LIST.sorts.map((s) => ({ value: s, label: t(`peopleLists.members.sorts.${s}`) }))}
      errors={members.errors}
      clear={members.base}
    />
  );
}
