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
  getTemplate,
  listTemplates,
  starterBlocks,
  templateCourseIds,
  DEFAULT_LAYOUT,
} from "~/models/certificate-templates.server";
import { getCertificate, listCertificates, restoreCertificate, revokeCertificate } from "~/models/certificate.server";
import { verificationPath } from "~/models/certificate-render.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm, text } from "~/utils/form-data.server";
import { parseForm } from "~/utils/form";
import { getFixedT } from "~/utils/i18n.server";
import { languageFor } from "~/utils/preferences.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { IssuedCertificates } from "./issued-certificates";

/**
 * Certificate templates (docs/product.md §2 certificate-templates in both areas): the list, a create form, and the
 * organization's issued certificates with revoking (drawn by issued-certificates.tsx). The editor is in
 * certificate-template-editor.tsx.
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

type ListData = Awaited<ReturnType<ReturnType<typeof templatesLoader>>>;

export function CertificateTemplates() {
  const { t } = useTranslation();
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
        <TemplatesTable base={data.base} templates={data.templates} />
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

      <IssuedCertificates q={data.q} page={data.page} pages={data.pages} certificates={data.certificates} reply={reply} />
    </section>
  );
}

/** The organization's templates: each with its page, the number of courses using it, and which is the default. */
function TemplatesTable({ base, templates }: { base: string; templates: ListData["templates"] }) {
  const { t } = useTranslation();
  return (
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
        {templates.map((tpl) => (
          <tr key={tpl.id} data-template={tpl.name}>
            <td>
              <Link to={`${base}/${tpl.id}`}>{tpl.name}</Link>
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
