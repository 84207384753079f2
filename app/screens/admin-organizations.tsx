import { getFormProps } from "@conform-to/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { Field, LanguageField, useZodForm } from "~/components/form";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { OrganizationsTable } from "~/components/organizations-table";
import { createOrganizationSchema } from "~/models/forms/organizations";
import { ORGANIZATION_LIST } from "~/models/forms/organization-list";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { listSearch } from "~/utils/list-query";
import type { organizationsAction, organizationsLoader } from "./admin-organizations.server";

/** The super-admin's organizations: the list (issue 50) and the form that creates one; server side in admin-organizations.server.ts. */
type Loaded = Awaited<ReturnType<typeof organizationsLoader>>;

export function AdminOrganizations() {
  const { t } = useTranslation();
  const data = useLoaderData<Loaded>();
  const lastResult = useActionData<typeof organizationsAction>();
  const [form, fields] = useZodForm({ schema: createOrganizationSchema, lastResult, defaultValue: { language: "en" } });
  return (
    <section>
      <h1>{t("admin.organizations")}</h1>
      {data.page.total === 0 && !data.filtered ? <p className="empty-state">{t("admin.empty")}</p> : <OrganizationsList data={data} />}
      <h2>{t("admin.createOrganization")}</h2>
      <Form method="post" {...getFormProps(form)} className="panel">
        <Field label={t("admin.name")} field={fields.name} type="text" />
        <LanguageField label={t("admin.language")} field={fields.language} />
        <Field label={t("admin.urlPrefix")} field={fields.urlPrefix} type="text" />
        <p className="hint">{t("admin.urlPrefixHint", { domain: data.platformDomain })}</p>
        <Field label={t("admin.adminEmail")} field={fields.adminEmail} type="email" />
        <p className="hint">{t("admin.adminEmailHint")}</p>
        <button type="submit" className="primary" data-testid="create-organization">
          {t("admin.create")}
        </button>
      </Form>
    </section>
  );
}

function OrganizationsList({ data }: { data: Loaded }) {
  const { t } = useTranslation();
  const pick = (name: string, values: readonly string[], label: (v: string) => string) => ({
    name,
    label: t(`platformLists.organizations.${name}`),
    any: t(`platformLists.organizations.any.${name}`),
    options: values.map((value) => ({ value, label: label(value) })),
  });
  return (
    <>
      <ListControls
        id="organizations-list"
        label={t("platformLists.organizations.label")}
        searchLabel={t("platformLists.organizations.search")}
        query={data.query}
        filters={[
          pick("language", LANGUAGES, (v) => LANGUAGE_NAMES[v as (typeof LANGUAGES)[number]]),
          pick("twoFactor", ["required", "optional"], (v) => t(`platformLists.organizations.twoFactors.${v}`)),
          pick("address", ["prefix", "domain"], (v) => t(`platformLists.organizations.addresses.${v}`)),
        ]}
        sorts={ORGANIZATION_LIST.sorts.map((s) => ({ value: s, label: t(`platformLists.organizations.sorts.${s}`) }))}
        errors={data.errors}
        clear={data.base}
      />
      {data.organizations.length > 0 && <OrganizationsTable organizations={data.organizations} base={data.base} locale={data.locale} />}
      <ListPager
        {...data.page}
        shown={data.organizations.length}
        locale={data.locale}
        link={(n) => `${data.base}${listSearch(data.query, ORGANIZATION_LIST, { page: n })}`}
        label={t("lists.pages")}
      />
    </>
  );
}
