import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { controlProps, ErrorList, FormErrors, FormMessage, useZodForm } from "~/components/form";
import { importOptionsSchema } from "~/models/forms/users";
import { listGroupChoices } from "~/models/group.server";
import { getJob } from "~/models/job.server";
import {
  checkCsv,
  existingEmails,
  getImport,
  markImportQueued,
  previewOf,
  readCsvUpload,
  storeImport,
  type ImportProblem,
} from "~/models/user-import.server";
import { getUserSettings } from "~/models/user-settings.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { withManagedOrganization } from "~/kernel/manage.server";
import { Heading } from "~/components/heading";
import { PastImports } from "./user-import-list";
import { importList } from "~/models/user-import-list.server";
import { IMPORT_LIST } from "~/models/forms/import-list";
import { isWholeList, parseListQuery } from "~/utils/list-query";
import { formatDate } from "~/utils/dates";
import { dateLocaleFor } from "./analytics.server";
import { readForm } from "~/utils/form-data.server";

/**
 * CSV import (docs/product.md §2 users "CSV import"; §5 the file's columns): upload → every problem by line, or a
 * preview of the first rows → confirm → a background job with a progress bar that refreshes itself.
 */
const BASE = "/dashboard/users/import";
const area = { area: "dashboard" as const, capability: "write:user" as const };

/** Shown at most; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 200;

export function ProblemList({ problems }: { problems: ImportProblem[] }) {
  const { t } = useTranslation();
  if (!problems.length) return null;
  return (
    <div className="panel" role="alert" data-testid="import-problems">
      <Heading sub={1}>{t("import.problems", { count: problems.length })}</Heading>
      <ul className="import-problems">
        {problems.slice(0, MAX_PROBLEMS_SHOWN).map((p, i) => (
          <li key={i} data-line={p.line ?? ""}>
            {p.line ? <strong>{t("import.line", { line: p.line })}</strong> : null} {t(`import.errors.${p.code}`, p.params ?? {})}
          </li>
        ))}
      </ul>
      {problems.length > MAX_PROBLEMS_SHOWN ? (
        <p className="hint">{t("import.moreProblems", { count: problems.length - MAX_PROBLEMS_SHOWN })}</p>
      ) : null}
      <p className="hint">{t("import.nothingWritten")}</p>
    </div>
  );
}

/** The organization's past imports under the form (issue 50): a list searched, filtered, sorted and paged from the address. */
function pastImports(db: Parameters<typeof importList>[0], request: Request, locale: string) {
  const { query, errors } = parseListQuery(new URL(request.url), IMPORT_LIST);
  const list = importList(db, query);
  return {
    base: BASE,
    query: { ...query, page: list.page },
    errors,
    page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
    filtered: !isWholeList(query, IMPORT_LIST),
    locale,
    rows: list.rows.map((r) => ({ ...r, createdAt: formatDate(r.createdAt, { locale, timeStyle: "short" }) })),
  };
}

export function importLoader({ request, context, params }: LoaderFunctionArgs) {
  return withManagedOrganization(request, context, params, area, (m) => {
    const settings = getUserSettings(m.db);
    return {
      groups: listGroupChoices(m.db, m.viewer).map((g) => ({ id: g.id, name: g.name })),
      inviteImported: settings.inviteImported,
      groupId: new URL(request.url).searchParams.get("group") ?? "",
      imports: pastImports(m.db, request, dateLocaleFor(m.viewer)),
    };
  });
}

export function importAction({ request, context, params }: ActionFunctionArgs) {
  return withManagedOrganization(request, context, params, area, async (m) => {
    const upload = await readCsvUpload(request);
    if ("problem" in upload) return json({ problems: [upload.problem] }, { status: 400 });
    const options = parseForm(upload.fields ?? new FormData(), importOptionsSchema);
    // The options come back with every answer, so the group and the tick stay as chosen.
    if (options.status !== "success") return json({ problems: [] as ImportProblem[], result: options.reply() }, { status: 400 });
    const checked = checkCsv(upload.bytes, existingEmails(m.db));
    if (checked.problems.length) return json({ problems: checked.problems, result: options.reply() }, { status: 400 });
    const stored = storeImport(m.db, { ...upload, ...options.value, rowCount: checked.rows.length, createdBy: m.viewer.person.id });
    if (!stored) return json({ problems: [{ line: null, code: "notCsv" }] as ImportProblem[], result: options.reply() }, { status: 400 });
    return redirect(`${BASE}/${stored.id}`);
  });
}

export function ImportUpload() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof importLoader>();
  const action = useActionData<{ problems: ImportProblem[]; result?: SubmissionResult<string[]> }>();
  const [form, fields] = useZodForm({
    id: "import",
    schema: importOptionsSchema,
    lastResult: action?.result,
    defaultValue: { groupId: data.groupId, sendInvitations: data.inviteImported ? "on" : undefined },
  });
  const busy = useNavigation().state === "submitting";
  return (
    <section>
      <div className="toolbar">
        <Heading>{t("import.title")}</Heading>
        <Link to="/dashboard/users">{t("import.back")}</Link>
      </div>
      <ProblemList problems={action?.problems ?? []} />
      <Form method="post" encType="multipart/form-data" className="panel" data-testid="import-form" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <p>{t("import.intro")}</p>
        <pre className="import-sample">
          {t("import.sampleHeader")}
          {"\n"}Anna,Berg,+45 12 34 56 78,anna@example.com{"\n"}Jonas,,,jonas@example.com
        </pre>
        <p className="hint">
          {t("import.sampleHint")}{" "}
          <a href="/samples/users-import.csv" download>
            {t("import.sampleLink")}
          </a>
        </p>
        <div className="field">
          <label htmlFor="import-file">{t("import.file")}</label>
          <input id="import-file" name="file" type="file" accept=".csv,text/csv" required />
        </div>
        <div className="field">
          <label htmlFor="import-group">{t("import.group")}</label>
          <select {...controlProps(fields.groupId, "import-group")} key={fields.groupId.key}>
            <option value="">{t("import.noGroup")}</option>
            {data.groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
          <ErrorList id="import-group-error" errors={fields.groupId.errors} />
        </div>
        <div className="field field-check">
          <label>
            <input
              type="checkbox"
              name={fields.sendInvitations.name}
              defaultChecked={fields.sendInvitations.initialValue === "on"}
              key={fields.sendInvitations.key}
            />{" "}
            {t("import.sendInvitations")}
          </label>
        </div>
        <button type="submit" className="primary" disabled={busy} data-testid="check-import">
          {t("import.check")}
        </button>
      </Form>
      <PastImports list={data.imports} />
    </section>
  );
}

function importFrom(db: Parameters<typeof getImport>[0], id: string | undefined) {
  const found = /^\d{1,15}$/.test(id ?? "") ? getImport(db, Number(id)) : undefined;
  if (!found) throw new Response("Not Found", { status: 404 });
  return found;
}

export function importStatusLoader({ request, context, params }: LoaderFunctionArgs) {
  return withManagedOrganization(request, context, params, area, (m) => {
    const found = importFrom(m.db, params.importId);
    const job = found.jobId ? getJob(m.db, found.jobId) : undefined;
    const group = found.groupId ? listGroupChoices(m.db, m.viewer).find((g) => g.id === found.groupId) : undefined;
    const base = {
      id: found.id,
      fileName: found.fileName,
      rowCount: found.rowCount,
      group: group ? { name: group.name, url: `${m.base}/groups/${group.id}` } : null,
      sendInvitations: found.sendInvitations,
    };
    if (found.status === "preview") {
      const preview = previewOf(m.db, found);
      return {
        ...base,
        status: "preview" as const,
        preview: preview.rows,
        problems: preview.problems,
        progress: 0,
        result: null,
        error: null,
      };
    }
    return {
      ...base,
      status: job?.status ?? found.status,
      preview: [],
      problems: [],
      progress: job?.progress ?? 0,
      result: (job?.result ?? null) as { imported?: number; invited?: number } | null,
      error: job?.error ?? null,
    };
  });
}

export function importStatusAction({ request, context, params }: ActionFunctionArgs) {
  return withManagedOrganization(request, context, params, area, async (m) => {
    const found = importFrom(m.db, params.importId);
    const intent = (await readForm(request, context)).get("intent");
    if (intent !== "confirm") throw new Response("Bad Request", { status: 400 });
    if (found.status === "preview") {
      const job = context.platform.jobs.enqueue(m.organization.id, m.db, "users.import", { import_id: found.id });
      markImportQueued(m.db, found.id, job.id);
    }
    return redirectWithFlash(`${BASE}/${found.id}`, "import.flash.started");
  });
}

/** Without JavaScript the page refreshes itself every two seconds while the import runs. */
export const importStatusMeta: MetaFunction = ({ data, matches }) => {
  const inherited = matches.flatMap((m) => m.meta ?? []);
  const status = (data as { status?: string } | undefined)?.status;
  return status === "queued" || status === "running" ? [...inherited, { httpEquiv: "refresh", content: "2" }] : inherited;
};

/** `import:<line>:<code>` from the job, as a sentence. */
function jobErrorText(error: string, t: (key: string, o?: Record<string, unknown>) => string) {
  const match = /^import:(\d*):(\w+)$/.exec(error);
  if (!match) return t("import.failed", { error });
  return `${match[1] ? `${t("import.line", { line: match[1] })} ` : ""}${t(`import.errors.${match[2]}`, { email: "", first: "", value: "", count: "", titles: "" })}`;
}

export function ImportStatus() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof importStatusLoader>();
  return (
    <section data-testid="import" data-status={data.status}>
      <div className="toolbar">
        <Heading>{t("import.title")}</Heading>
        <Link to="/dashboard/users">{t("import.back")}</Link>
      </div>
      <p>
        {t("import.summary", { file: data.fileName, count: data.rowCount })}
        {data.group ? ` ${t("import.intoGroup", { group: data.group.name })}` : ""}
      </p>
      {data.status === "preview" ? (
        <>
          <ProblemList problems={data.problems} />
          <div className="panel" data-testid="import-preview">
            <Heading sub={1}>{t("import.preview", { count: data.preview.length, total: data.rowCount })}</Heading>
            <table className="table">
              <thead>
                <tr>
                  <th>{t("import.line", { line: "" }).trim()}</th>
                  <th>{t("users.firstName")}</th>
                  <th>{t("users.lastName")}</th>
                  <th>{t("users.phone")}</th>
                  <th>{t("users.email")}</th>
                </tr>
              </thead>
              <tbody>
                {data.preview.map((r) => (
                  <tr key={r.line}>
                    <td>{r.line}</td>
                    <td>{r.firstName}</td>
                    <td>{r.lastName}</td>
                    <td>{r.phone}</td>
                    <td>{r.email}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {data.problems.length === 0 ? (
              <Form method="post">
                <p className="hint">{data.sendInvitations ? t("import.willInvite") : t("import.willNotInvite")}</p>
                <button type="submit" name="intent" value="confirm" className="primary" data-testid="confirm-import">
                  {t("import.confirm", { count: data.rowCount })}
                </button>{" "}
                <Link to={BASE}>{t("confirm.cancel")}</Link>
              </Form>
            ) : (
              <Link to={BASE} className="button">
                {t("import.again")}
              </Link>
            )}
          </div>
        </>
      ) : null}
      {data.status === "queued" || data.status === "running" ? (
        <div className="panel">
          <p>{data.status === "queued" ? t("import.queued") : t("import.running", { progress: data.progress })}</p>
          <progress className="import-progress" max={100} value={data.progress} data-testid="import-progress" />
          <p className="hint">{t("import.refreshHint")}</p>
        </div>
      ) : null}
      {data.status === "done" ? (
        <div className="panel">
          <FormMessage kind="notice">
            {t("import.done", { count: data.result?.imported ?? 0, invited: data.result?.invited ?? 0 })}
          </FormMessage>
          <p>
            <Link to="/dashboard/users" className="button primary">
              {t("import.toUsers")}
            </Link>{" "}
            {data.group ? <Link to={data.group.url}>{data.group.name}</Link> : null}
          </p>
        </div>
      ) : null}
      {data.status === "failed" ? (
        <div className="panel">
          <FormMessage>{jobErrorText(data.error ?? "", t)}</FormMessage>
          <p className="hint">{t("import.nothingWritten")}</p>
          <Link to={BASE} className="button">
            {t("import.again")}
          </Link>
        </div>
      ) : null}
    </section>
  );
}
