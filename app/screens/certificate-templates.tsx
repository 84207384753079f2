import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ConfirmDelete } from "~/components/confirm-delete";
import { controlProps, ErrorList, useZodForm } from "~/components/form";
import { newTemplateSchema, revokeSchema } from "~/models/forms/certificates";
import {
  createTemplate,
  deleteTemplate,
  getCertificate,
  getTemplate,
  listCertificates,
  listTemplates,
  restoreCertificate,
  revokeCertificate,
  starterBlocks,
  templateCourseIds,
  DEFAULT_LAYOUT,
} from "~/models/certificate.server";
import { verificationPath } from "~/models/certificate-render.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm, text } from "~/utils/form-data.server";
import { parseForm } from "~/utils/form";
import { formatDate } from "~/utils/dates";
import { getFixedT } from "~/utils/i18n.server";
import { languageFor } from "~/utils/preferences.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";

/**
 * Certificate templates (docs/product.md §2 certificate-templates in both areas): the list, a create form, and the
 * organization's issued certificates with revoking. The editor is in certificate-template-editor.tsx.
 */
export const templatesBase = (m: Managed) => `${m.base}/certificate-templates`;
const CAPABILITY = "write:certificate-template" as const;

export function templatesLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const url = new URL(request.url);
      const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
      const page = Math.max(1, Math.min(10_000, Number(url.searchParams.get("page")) || 1));
      const issued = listCertificates(m.db, { page, perPage: 25 }, { q: q || undefined });
      return {
        base: templatesBase(m),
        templates: listTemplates(m.db).map((t) => ({
          id: t.id,
          name: t.name,
          isDefault: t.isDefault,
          pageSize: t.layout.pageSize,
          orientation: t.layout.orientation,
          courses: templateCourseIds(m.db, t.id).length,
        })),
        q,
        page,
        pages: Math.max(1, Math.ceil(issued.total / 25)),
        certificates: issued.items.map((c) => ({
          id: c.id,
          publicId: c.publicId,
          learnerName: c.learnerName,
          courseTitle: c.courseTitle,
          issuedAt: c.issuedAt.toISOString(),
          revoked: Boolean(c.revokedAt),
          revokedReason: c.revokedReason,
          verify: verificationPath(c.publicId),
        })),
      };
    });
}

export function templatesAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const formData = await readForm(request, context);
      const intent = text(formData, "intent");
      if (intent === "revoke" || intent === "restore") {
        const id = Number(text(formData, "certificate_id"));
        const certificate = Number.isSafeInteger(id) && id > 0 ? getCertificate(m.db, id) : undefined;
        if (!certificate) throw new Response("Not Found", { status: 404 });
        if (intent === "restore") {
          restoreCertificate(m.db, certificate.id);
          return redirectWithFlash(templatesBase(m), "certificates.flash.restored");
        }
        const submission = parseForm(formData, revokeSchema);
        if (submission.status !== "success")
          return json<TemplatesReply>({ form: `revoke-${certificate.id}`, result: submission.reply() }, { status: 400 });
        revokeCertificate(m.db, certificate.id, submission.value.reason);
        return redirectWithFlash(templatesBase(m), "certificates.flash.revoked");
      }
      const submission = parseForm(formData, newTemplateSchema);
      if (submission.status !== "success") return json<TemplatesReply>({ form: "create", result: submission.reply() }, { status: 400 });
      const { name } = submission.value;
      const t = await getFixedT(await languageFor(request, context));
      const labels = {
        heading: t("certificates.starter.heading"),
        certifies: t("certificates.starter.certifies"),
        completed: t("certificates.starter.completed"),
        score: t("certificates.starter.score"),
        verify: t("certificates.starter.verify"),
      };
      const created = createTemplate(m.db, { name, is_default: false, layout: { ...DEFAULT_LAYOUT, blocks: starterBlocks(labels) } });
      if (!created.ok)
        return json<TemplatesReply>(
          { form: "create", result: submission.reply({ fieldErrors: { name: [created.message] } }) },
          { status: 400 },
        );
      return redirectWithFlash(`${templatesBase(m)}/${created.value.id}`, "certificates.flash.saved");
    });
}

/** Which form of the page answered (the new template's, or one certificate's revoking) and conform's reply. */
type TemplatesReply = { form: string; result: SubmissionResult<string[]> };

/** Revoking one certificate: a reason is required; its message shows beside this certificate only. */
function RevokeForm({ id, publicId, reply }: { id: number; publicId: string; reply?: TemplatesReply }) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm({
    id: `revoke-${id}`,
    schema: revokeSchema,
    lastResult: reply?.form === `revoke-${id}` ? reply.result : undefined,
  });
  return (
    <Form method="post" className="inline-form revoke-form" {...getFormProps(form)}>
      <input type="hidden" name="certificate_id" value={id} />
      <label>
        <span className="visually-hidden">{t("certificates.issued.reason")}</span>
        <input
          {...controlProps(fields.reason, `reason-${id}`)}
          key={fields.reason.key}
          maxLength={500}
          placeholder={t("certificates.issued.reason")}
          required
        />
      </label>
      <button type="submit" name="intent" value="revoke" className="danger" data-testid={`revoke-${publicId}`}>
        {t("certificates.issued.revoke")}
      </button>
      <ErrorList id={`reason-${id}-error`} errors={fields.reason.errors} />
    </Form>
  );
}

type ListData = Awaited<ReturnType<ReturnType<typeof templatesLoader>>>;

export function CertificateTemplates() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<ListData>();
  const reply = useActionData<TemplatesReply>();
  const [form, fields] = useZodForm({
    id: "new-template",
    schema: newTemplateSchema,
    lastResult: reply?.form === "create" ? reply.result : undefined,
  });
  return (
    <section className="certificates-admin">
      <h2>{t("certificates.templates.title")}</h2>
      <p className="muted">{t("certificates.templates.intro")}</p>
      {data.templates.length === 0 ? (
        <p className="empty-state">{t("certificates.templates.empty")}</p>
      ) : (
        <table className="table" data-testid="certificate-templates">
          <thead>
            <tr>
              <th>{t("certificates.templates.name")}</th>
              <th>{t("certificates.templates.page")}</th>
              <th>{t("certificates.templates.courses")}</th>
              <th>
                <span className="visually-hidden">{t("certificates.templates.default")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.templates.map((tpl) => (
              <tr key={tpl.id} data-template={tpl.name}>
                <td>
                  <Link to={`${data.base}/${tpl.id}`}>{tpl.name}</Link>
                </td>
                <td>
                  {t(`certificates.pageSize.${tpl.pageSize}`)} · {t(`certificates.orientation.${tpl.orientation}`)}
                </td>
                <td>{tpl.courses}</td>
                <td>{tpl.isDefault ? <span className="badge published">{t("certificates.templates.default")}</span> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Form method="post" className="panel" {...getFormProps(form)}>
        <h3>{t("certificates.templates.create")}</h3>
        <div className="field">
          <label htmlFor="template-name">{t("certificates.templates.name")}</label>
          <input {...controlProps(fields.name, "template-name")} key={fields.name.key} maxLength={200} required />
          <ErrorList id="template-name-error" errors={fields.name.errors} />
        </div>
        <button type="submit" name="intent" value="create" className="primary" data-testid="create-template">
          {t("certificates.templates.create")}
        </button>
      </Form>

      <h2 id="issued">{t("certificates.issued.title")}</h2>
      <Form method="get" className="subform" action="#issued">
        <label>
          <span className="visually-hidden">{t("certificates.issued.search")}</span>
          <input type="search" name="q" defaultValue={data.q} placeholder={t("certificates.issued.search")} maxLength={200} />
        </label>{" "}
        <button type="submit">{t("certificates.issued.searchButton")}</button>
      </Form>
      {data.certificates.length === 0 ? (
        <p className="empty-state">{t("certificates.issued.empty")}</p>
      ) : (
        <table className="table" data-testid="issued-certificates">
          <thead>
            <tr>
              <th>{t("certificates.issued.learner")}</th>
              <th>{t("certificates.issued.course")}</th>
              <th>{t("certificates.issued.date")}</th>
              <th>{t("certificates.issued.status")}</th>
              <th>
                <span className="visually-hidden">{t("certificates.issued.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.certificates.map((c) => (
              <tr key={c.id} data-certificate={c.publicId}>
                <td>{c.learnerName}</td>
                <td>{c.courseTitle}</td>
                <td>{formatDate(c.issuedAt, { locale: i18n.language === "en" ? "en-GB" : undefined })}</td>
                <td>
                  {c.revoked ? (
                    <span className="badge danger" title={c.revokedReason ?? ""}>
                      {t("certificates.status.revoked")}
                    </span>
                  ) : (
                    <span className="badge published">{t("certificates.status.valid")}</span>
                  )}{" "}
                  <a href={c.verify}>{c.publicId}</a>
                </td>
                <td className="actions">
                  {c.revoked ? (
                    <Form method="post" className="inline-form">
                      <input type="hidden" name="certificate_id" value={c.id} />
                      <button type="submit" name="intent" value="restore">
                        {t("certificates.issued.restore")}
                      </button>
                    </Form>
                  ) : (
                    <RevokeForm id={c.id} publicId={c.publicId} reply={reply} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data.pages > 1 ? (
        <nav className="pagination" aria-label={t("certificates.issued.title")}>
          {data.page > 1 ? <Link to={`?${new URLSearchParams({ q: data.q, page: String(data.page - 1) })}#issued`}>←</Link> : null}
          <span>
            {data.page} / {data.pages}
          </span>
          {data.page < data.pages ? <Link to={`?${new URLSearchParams({ q: data.q, page: String(data.page + 1) })}#issued`}>→</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export function templateFrom(m: Managed, id: string | undefined) {
  const template = /^\d{1,15}$/.test(id ?? "") ? getTemplate(m.db, Number(id)) : undefined;
  if (!template) throw new Response("Not Found", { status: 404 });
  return template;
}

export function deleteTemplateLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const template = templateFrom(m, params.certificateTemplateId);
      return { name: template.name, back: `${templatesBase(m)}/${template.id}` };
    });
}

export function deleteTemplateAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const template = templateFrom(m, params.certificateTemplateId);
      await readForm(request, context);
      deleteTemplate(m.db, template.id);
      return redirectWithFlash(templatesBase(m), "certificates.flash.deleted");
    });
}

export function DeleteTemplate() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}
