import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation, type Translate } from "~/utils/translate";
import { ConfirmDelete } from "~/components/confirm-delete";
import { controlProps, ErrorList, useZodForm } from "~/components/form";
import { newTemplateSchema } from "~/models/forms/certificates";
import { createTemplate, deleteTemplate, getTemplate, starterBlocks, DEFAULT_LAYOUT } from "~/models/certificate-templates.server";
import { certificateTemplateList } from "~/models/certificate-template-list.server";
import { CERTIFICATE_TEMPLATE_LIST } from "~/models/forms/certificate-template-list";
import { ListControls, ListPager, type ListFilter } from "~/components/list/list-controls";
import { isWholeList, listSearch, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm } from "~/utils/form-data.server";
import { parseForm } from "~/utils/form";
import { getFixedT } from "~/utils/i18n.server";
import { languageFor } from "~/utils/preferences.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";

/**
 * Certificate templates (docs/product.md §2 certificate-templates in both areas): the list (issue 50) and a create
 * form. The editor is in certificate-template-editor.tsx; the organization's issued certificates, with revoking,
 * have their own list (issued-certificates.tsx, at `certificates` beside this).
 */
export const templatesBase = (m: Managed) => `${m.base}/certificate-templates`;
const CAPABILITY = "write:certificate-template" as const;

/** The templates list (issue 50): searched, filtered, sorted and paged from its address (app/utils/list-query.ts). */
export function templatesLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const { query, errors } = parseListQuery(new URL(request.url), CERTIFICATE_TEMPLATE_LIST);
      const list = certificateTemplateList(m.db, query);
      return {
        base: templatesBase(m),
        issued: `${m.base}/certificates`,
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        filtered: !isWholeList(query, CERTIFICATE_TEMPLATE_LIST),
        locale: dateLocaleFor(m.viewer),
        templates: list.rows.map(({ template: t, courses }) => ({
          id: t.id,
          name: t.name,
          isDefault: t.isDefault,
          pageSize: t.layout.pageSize,
          orientation: t.layout.orientation,
          courses,
        })),
      };
    });
}

export function templatesAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const formData = await readForm(request, context);
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

/** Which form of the page answered (the new template's) and conform's reply. */
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
      <div className="toolbar">
        <h2>{t("certificates.templates.title")}</h2>
        <Link to={data.issued} className="button" data-testid="issued-certificates-link">
          {t("certificates.issued.title")}
        </Link>
      </div>
      <p className="muted">{t("certificates.templates.intro")}</p>
      {data.page.total === 0 && !data.filtered ? (
        <p className="empty-state">{t("certificates.templates.empty")}</p>
      ) : (
        <>
          <ListControls
            id="templates-list"
            label={t("contentLists.templates.label")}
            searchLabel={t("certificates.templates.name")}
            query={data.query}
            filters={templateFilters(t)}
            sorts={CERTIFICATE_TEMPLATE_LIST.sorts.map((s) => ({ value: s, label: t(`contentLists.templates.sorts.${s}`) }))}
            errors={data.errors}
            clear={data.base}
          />
          {data.templates.length > 0 && <TemplatesTable base={data.base} templates={data.templates} />}
          <ListPager
            {...data.page}
            shown={data.templates.length}
            locale={data.locale}
            link={(n) => `${data.base}${listSearch(data.query, CERTIFICATE_TEMPLATE_LIST, { page: n })}`}
            label={t("lists.pages")}
          />
        </>
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
    </section>
  );
}

/** The templates list's filters, with their choices. */
function templateFilters(t: Translate): ListFilter[] {
  return [
    {
      name: "kind",
      label: t("contentLists.templates.kind"),
      any: t("contentLists.templates.anyKind"),
      options: [
        { value: "default", label: t("certificates.templates.default") },
        { value: "other", label: t("contentLists.templates.other") },
      ],
    },
    {
      name: "use",
      label: t("contentLists.templates.use"),
      any: t("contentLists.templates.anyUse"),
      options: (["used", "unused"] as const).map((v) => ({ value: v, label: t(`contentLists.templates.${v}`) })),
    },
  ];
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
