import { getFormProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { Field, LanguageField, useZodForm } from "~/components/form";
import { createOrganizationSchema } from "~/models/forms/organizations";
import { OrganizationsTable } from "~/components/organizations-table";
import { listOrganizations } from "~/models/organization.server";
import { provisionOrganization } from "~/models/provision.server";
import { requireSuperAdmin } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { readForm } from "~/utils/form-data.server";

/** docs/product.md §2: organizations, listed with name and URL; created with name and language. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSuperAdmin(request, context);
  return {
    platformDomain: context.platform.platformDomain,
    organizations: listOrganizations(context.platform.db).map((o) => ({ id: o.id, name: o.name, url: context.platform.originFor(o) })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireSuperAdmin(request, context);
  const submission = parseForm(await readForm(request, context), createOrganizationSchema);
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const result = await provisionOrganization(context.platform, submission.value);
  if (!result.ok) return json(submission.reply({ fieldErrors: result.fields }), { status: 400 });
  return redirectWithFlash(`/admin/organizations/${result.organization.id}`, "flash.organizationCreated");
}

export default function Organizations() {
  const { t } = useTranslation();
  const { organizations, platformDomain } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useZodForm({ schema: createOrganizationSchema, lastResult, defaultValue: { language: "en" } });
  return (
    <section>
      <h1>{t("admin.organizations")}</h1>
      {organizations.length === 0 ? (
        <p className="empty-state">{t("admin.empty")}</p>
      ) : (
        <OrganizationsTable organizations={organizations} base="/admin/organizations" />
      )}
      <h2>{t("admin.createOrganization")}</h2>
      <Form method="post" {...getFormProps(form)} className="panel">
        <Field label={t("admin.name")} field={fields.name} type="text" />
        <LanguageField label={t("admin.language")} field={fields.language} />
        <Field label={t("admin.urlPrefix")} field={fields.urlPrefix} type="text" />
        <p className="hint">{t("admin.urlPrefixHint", { domain: platformDomain })}</p>
        <Field label={t("admin.adminEmail")} field={fields.adminEmail} type="email" />
        <p className="hint">{t("admin.adminEmailHint")}</p>
        <button type="submit" className="primary" data-testid="create-organization">
          {t("admin.create")}
        </button>
      </Form>
    </section>
  );
}
