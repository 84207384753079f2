import type { ReactNode } from "react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormMessage } from "~/components/form";
import { Heading } from "~/components/heading";
import { useTranslation } from "~/utils/translate";
import type { personLoader } from "./person-page.server";

/**
 * A person's page (issue 50; app/screens/person-page.server.ts): who they are, their groups, learning, assignments,
 * quizzes, certificates, points and badges, SCORM and xAPI results, devices and the audit of what admins changed
 * about them, each a short table; links to edit, deactivate or delete them. Plain links and forms throughout.
 */
type Data = ReturnType<ReturnType<typeof personLoader>> extends Promise<infer T> ? T : never;

function Section({ title, count, testid, children }: { title: string; count: number; testid: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="panel person-section" data-testid={testid}>
      <Heading sub={1}>{title}</Heading>
      {count === 0 ? <p className="empty-state">{t("person.none")}</p> : children}
    </section>
  );
}

function Table({ head, rows }: { head: string[]; rows: ReactNode[][] }) {
  return (
    <div className="table-scroll">
      <table className="table">
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, i) => (
            <tr key={i}>
              {cells.map((c, j) => (
                <td key={j}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function useDates(locale: string) {
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const moment = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  return {
    day: (iso: string | null) => (iso ? day.format(new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso)) : "—"),
    at: (iso: string | null) => (iso ? moment.format(new Date(iso)) : "—"),
  };
}

function Profile({ data }: { data: Data }) {
  const { t } = useTranslation();
  const { at } = useDates(data.locale);
  const p = data.person.profile;
  const items: [string, ReactNode][] = [
    [t("users.email"), p.email],
    [t("users.phone"), p.phone || "—"],
    [t("users.type"), t(`users.roles.${p.role ?? "none"}`)],
    [t("person.status"), p.disabled ? t("admin.disabled") : t("lists.users.active")],
    [t("person.added"), at(p.created_at)],
    [t("person.lastSeen"), at(p.last_seen_at)],
    [t("person.points"), String(data.person.points)],
  ];
  return (
    <dl className="bulk-detail" data-testid="person-profile">
      {items.map(([term, value]) => (
        <div key={term} className="contents">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Learning({ data }: { data: Data }) {
  const { t } = useTranslation();
  const { day, at } = useDates(data.locale);
  const { courses, paths, assignments } = data.person;
  return (
    <>
      <Section title={t("person.courses")} count={courses.length} testid="person-courses">
        <Table
          head={[t("person.course"), t("person.progress"), t("person.lastActivity"), t("person.completed")]}
          rows={courses.map((c) => [c.title, `${c.done} / ${c.lessons}`, at(c.last), at(c.completed_at)])}
        />
      </Section>
      <Section title={t("person.paths")} count={paths.length} testid="person-paths">
        <Table
          head={[t("person.path"), t("person.enrolled"), t("person.completed")]}
          rows={paths.map((p) => [p.title, at(p.enrolled_at), at(p.completed_at)])}
        />
      </Section>
      <Section title={t("person.assignments")} count={assignments.length} testid="person-assignments">
        <Table
          head={[t("person.assigned"), t("person.group"), t("person.due"), t("person.state")]}
          rows={assignments.map((a) => [
            a.title,
            a.group ?? "—",
            day(a.due_on),
            <span key="s" data-state={a.state}>
              {t(`person.states.${a.state}`)}
            </span>,
          ])}
        />
      </Section>
    </>
  );
}

function Results({ data }: { data: Data }) {
  const { t } = useTranslation();
  const { at } = useDates(data.locale);
  const { quiz_attempts: quizzes, certificates, badges, scorm, xapi } = data.person;
  return (
    <>
      <Section title={t("person.quizzes")} count={quizzes.length} testid="person-quizzes">
        <Table
          head={[t("person.quiz"), t("person.attempt"), t("person.score"), t("person.result"), t("person.ended")]}
          rows={quizzes.map((q) => [
            q.title,
            String(q.attempt_number),
            q.score === null ? "—" : `${q.score}%`,
            q.passed === null ? "—" : t(q.passed ? "person.passed" : "person.failed"),
            at(q.ended_at),
          ])}
        />
      </Section>
      <Section title={t("person.certificates")} count={certificates.length} testid="person-certificates">
        <Table
          head={[t("person.course"), t("person.issued"), t("person.revoked")]}
          rows={certificates.map((c) => [c.course_title, at(c.issued_at), at(c.revoked_at)])}
        />
      </Section>
      <Section title={t("person.badges")} count={badges.length} testid="person-badges">
        <Table head={[t("person.badge"), t("person.awarded")]} rows={badges.map((b) => [b.name, at(b.awarded_at)])} />
      </Section>
      <Section title={t("person.scorm")} count={scorm.length + xapi.statements} testid="person-results">
        {scorm.length > 0 ? (
          <Table
            head={[t("person.lesson"), t("person.completion"), t("person.success"), t("person.score"), t("person.lastActivity")]}
            rows={scorm.map((s) => [
              `${s.course} · ${s.lesson}`,
              s.completion_status ?? "—",
              s.success_status ?? "—",
              s.score_raw ?? "—",
              at(s.updated_at),
            ])}
          />
        ) : null}
        <p>{t("person.statements", { count: xapi.statements, last: at(xapi.last) })}</p>
      </Section>
    </>
  );
}

function Devices({ data }: { data: Data }) {
  const { t } = useTranslation();
  const { at } = useDates(data.locale);
  return (
    <Section title={t("person.devices")} count={data.devices.length} testid="person-devices">
      <Table
        head={[t("person.device"), t("person.ip"), t("person.lastSeen"), t("person.signOut")]}
        rows={data.devices.map((d) => [
          d.user_agent || d.kind,
          d.ip ?? "—",
          at(d.last_seen_at),
          <Form key="f" method="post" className="inline-form">
            <input type="hidden" name="device" value={d.id} />
            <button
              type="submit"
              name="intent"
              value="revoke-device"
              aria-label={t("person.signOutDevice", { device: d.user_agent || d.kind })}
            >
              {t("person.signOut")}
            </button>
          </Form>,
        ])}
      />
    </Section>
  );
}

export function PersonPage() {
  const { t } = useTranslation();
  const data = useLoaderData<Data>() as Data;
  const refused = useActionData<{ error?: string }>()?.error;
  const { at } = useDates(data.locale);
  const p = data.person.profile;
  const name = [p.first_name, p.last_name].filter(Boolean).join(" ") || p.email;
  return (
    <section data-testid="person" className="person-page">
      <div className="toolbar">
        <Heading>{name}</Heading>
        <Link to={`${data.base}/${p.id}`} className="button primary" data-testid="edit-person">
          {t("person.edit")}
        </Link>
        {data.isSelf ? null : (
          <Link to={`${data.base}/${p.id}/delete`} className="button danger" data-testid="delete-user">
            {t("users.delete")}
          </Link>
        )}
        <Link to={data.base}>{t("bulk.toPeople")}</Link>
      </div>
      {refused ? <FormMessage>{t(refused)}</FormMessage> : null}
      <Profile data={data} />
      <Section title={t("person.groups")} count={data.person.groups.length} testid="person-groups">
        <ul>
          {data.person.groups.map((g) => (
            <li key={g.id}>
              {g.name}
              {g.admin ? ` · ${t("person.groupAdmin")}` : ""}
              {g.source === "rule" ? ` · ${t("person.byRule")}` : ""}
            </li>
          ))}
        </ul>
      </Section>
      <Learning data={data} />
      <Results data={data} />
      <Devices data={data} />
      <Section title={t("person.audit")} count={data.person.audit.length} testid="person-audit">
        <Table
          head={[t("person.when"), t("person.what"), t("person.who")]}
          rows={data.person.audit.map((a) => [
            at(a.at),
            `${t(`person.auditActions.${a.action}`, { group: a.group_name ?? "" })}${a.detail ? ` · ${a.action === "role_changed" ? t(`users.roles.${a.detail}`) : a.detail}` : ""}`,
            String(a.actor_email ?? t("person.token")),
          ])}
        />
      </Section>
    </section>
  );
}
