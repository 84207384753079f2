import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmDelete } from "~/components/confirm-delete";
import { ErrorList } from "~/components/form";
import { PathFieldsForm } from "~/components/paths/path-fields-form";
import { PathAssignments } from "~/components/paths/path-assignments";
import { PathStepsEditor } from "~/components/paths/path-steps-editor";
import type { PathEditorData, pathsLoader } from "~/screens/organization-paths.server";
import { useTranslation } from "~/utils/translate";

type ListData = ReturnType<ReturnType<typeof pathsLoader>> extends Promise<infer T> ? T : never;
type Reply = { status?: string; error?: Record<string, string[] | null | undefined>; initialValue?: Record<string, unknown> | null };

/** The organization's learning paths (issue 49): each with its size and people, and a form to make one. */
export function Paths() {
  const { t } = useTranslation();
  const { base, paths } = useLoaderData<ListData>();
  const reply = useActionData<Reply>();
  return (
    <section>
      <h2>{t("paths.title")}</h2>
      {paths.length === 0 ? (
        <p className="empty-state">{t("paths.admin.empty")}</p>
      ) : (
        <table className="table" data-testid="admin-paths">
          <thead>
            <tr>
              <th scope="col">{t("paths.admin.title")}</th>
              <th scope="col">{t("paths.admin.state")}</th>
              <th scope="col">{t("paths.stepsTitle")}</th>
              <th scope="col">{t("paths.admin.enrolled")}</th>
              <th scope="col">{t("paths.admin.completed")}</th>
            </tr>
          </thead>
          <tbody>
            {paths.map((p) => (
              <tr key={p.id} data-path={p.title}>
                <td>
                  <Link to={`${base}/${p.id}`}>{p.title}</Link>
                </td>
                <td>{p.published ? t("paths.admin.published") : t("paths.admin.draftState")}</td>
                <td>{p.steps}</td>
                <td>{p.enrolled}</td>
                <td>{p.completed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Form method="post" className="panel" aria-labelledby="path-create">
        <h3 id="path-create">{t("paths.admin.create")}</h3>
        <div className="field">
          <label htmlFor="new-path-title">{t("paths.admin.title")}</label>
          <input id="new-path-title" name="title" maxLength={200} required aria-invalid={reply?.error?.title ? true : undefined} />
          <ErrorList id="new-path-title-error" errors={reply?.error?.title} />
        </div>
        <button type="submit" className="primary" data-testid="create-path">
          {t("paths.admin.create")}
        </button>
      </Form>
    </section>
  );
}

/** One path: its fields, its steps and its assignments (issue 49); its analytics are a page of their own. */
export function EditPath() {
  const { t } = useTranslation();
  const data = useLoaderData<PathEditorData>();
  const reply = useActionData<{ form: string; result: Reply; choices?: { id: number; name: string; email: string }[] }>();
  const failed =
    reply && reply.form !== "path" && reply.form !== "assign"
      ? { form: reply.form, index: Number(reply.result.initialValue?.index ?? -1), errors: reply.result.error }
      : null;
  return (
    <section>
      <p className="breadcrumb">
        <Link to={data.base}>← {t("paths.title")}</Link>
      </p>
      <h2>{data.path.title}</h2>
      <p className="path-admin-links">
        <Link to={data.learnerUrl}>{t("paths.admin.asLearner")}</Link>
        <Link to={`${data.base}/${data.path.id}/report`} data-testid="path-report-link">
          {t("paths.admin.analytics")}
        </Link>
      </p>
      <PathFieldsForm data={data} errors={reply?.form === "path" ? reply.result.error : undefined} />
      <PathStepsEditor data={data} failed={failed} />
      <PathAssignments data={data} failed={reply?.form === "assign" ? { errors: reply.result.error, choices: reply.choices } : null} />
      <div className="panel danger-zone">
        <Link to={`${data.base}/${data.path.id}/delete`} className="button danger" data-testid="delete-path">
          {t("paths.admin.delete")}
        </Link>
      </div>
    </section>
  );
}

export function DeletePath() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}
