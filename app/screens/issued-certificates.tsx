import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation, type Translate } from "~/utils/translate";
import { controlProps, ErrorList, useZodForm } from "~/components/form";
import { ListControls, ListPager, type ListFilter } from "~/components/list/list-controls";
import { revokeSchema } from "~/models/forms/certificates";
import { CERTIFICATE_LIST, CERTIFICATE_STATES, type CertificateState } from "~/models/forms/certificate-list";
import { certificateList, certificateListChoices } from "~/models/certificate-list.server";
import { getCertificate, restoreCertificate, revokeCertificate } from "~/models/certificate.server";
import { verificationPath } from "~/models/certificate-render.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { readForm, text } from "~/utils/form-data.server";
import { formatDate } from "~/utils/dates";
import { isWholeList, listSearch, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";

/**
 * The organization's issued certificates (docs/product.md §2 certificate-templates; issue 50), a list of its own at
 * /…/organizations/{id}/certificates beside the templates' (each list's state in its own address): searched by
 * person, course or number, filtered by course, state and template, sorted by when issued, person or course, a page
 * at a time; each valid, expired or revoked (with the reason), its verification link, and revoking or restoring it.
 */
export const certificatesBase = (m: Managed) => `${m.base}/certificates`;
const CAPABILITY = "write:certificate-template" as const;

export function issuedCertificatesLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const { query, errors } = parseListQuery(new URL(request.url), CERTIFICATE_LIST);
      const list = certificateList(m.db, query);
      return {
        base: certificatesBase(m),
        templates: `${m.base}/certificate-templates`,
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        filtered: !isWholeList(query, CERTIFICATE_LIST),
        choices: certificateListChoices(m.db),
        locale: dateLocaleFor(m.viewer),
        certificates: list.rows.map((c) => ({
          id: c.id,
          publicId: c.publicId,
          learnerName: c.learnerName,
          email: c.email,
          courseTitle: c.courseTitle,
          issuedAt: c.issuedAt.toISOString(),
          state: c.state,
          revokedReason: c.revokedReason,
          verify: verificationPath(c.publicId),
        })),
      };
    });
}

/** Revoking (a reason required) or restoring one certificate, then the same view of the list again. */
export function issuedCertificatesAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const formData = await readForm(request, context);
      const intent = text(formData, "intent");
      const id = Number(text(formData, "certificate_id"));
      const certificate = Number.isSafeInteger(id) && id > 0 ? getCertificate(m.db, id) : undefined;
      if (!certificate || (intent !== "revoke" && intent !== "restore")) throw new Response("Not Found", { status: 404 });
      const search = new URL(request.url).searchParams;
      search.delete("index");
      const rest = search.toString();
      const back = `${certificatesBase(m)}${rest ? `?${rest}` : ""}`;
      if (intent === "restore") {
        restoreCertificate(m.db, certificate.id);
        return redirectWithFlash(back, "certificates.flash.restored");
      }
      const submission = parseForm(formData, revokeSchema);
      if (submission.status !== "success")
        return json<FormReply>({ form: `revoke-${certificate.id}`, result: submission.reply() }, { status: 400 });
      revokeCertificate(m.db, certificate.id, submission.value.reason);
      return redirectWithFlash(back, "certificates.flash.revoked");
    });
}

type IssuedData = Awaited<ReturnType<ReturnType<typeof issuedCertificatesLoader>>>;
type IssuedCertificate = IssuedData["certificates"][number];

/** The page's reply to a form: which one answered (`revoke-<id>` for a certificate's), and conform's reply. */
type FormReply = { form: string; result: SubmissionResult<string[]> };

export function IssuedCertificates() {
  const { t } = useTranslation();
  const data = useLoaderData<IssuedData>();
  const reply = useActionData<FormReply>();
  return (
    <section className="certificates-admin">
      <div className="toolbar">
        <h2>{t("certificates.issued.title")}</h2>
        <Link to={data.templates} className="button">
          {t("certificates.templates.title")}
        </Link>
      </div>
      {data.page.total === 0 && !data.filtered ? (
        <p className="empty-state">{t("certificates.issued.empty")}</p>
      ) : (
        <>
          <ListControls
            id="certificates-list"
            label={t("contentLists.certificates.label")}
            searchLabel={t("contentLists.certificates.search")}
            query={data.query}
            filters={certificateFilters(t, data.choices)}
            sorts={CERTIFICATE_LIST.sorts.map((s) => ({ value: s, label: t(`contentLists.certificates.sorts.${s}`) }))}
            errors={data.errors}
            clear={data.base}
          />
          {data.certificates.length > 0 && (
            <div className="list-table">
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
                    <IssuedRow key={c.id} certificate={c} locale={data.locale} reply={reply} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ListPager
            {...data.page}
            shown={data.certificates.length}
            locale={data.locale}
            link={(n) => `${data.base}${listSearch(data.query, CERTIFICATE_LIST, { page: n })}`}
            label={t("lists.pages")}
          />
        </>
      )}
    </section>
  );
}

/** The issued certificates list's filters, with their choices. */
function certificateFilters(t: Translate, choices: IssuedData["choices"]): ListFilter[] {
  return [
    {
      name: "course",
      label: t("certificates.issued.course"),
      any: t("contentLists.certificates.anyCourse"),
      options: choices.courses.map((c) => ({ value: String(c.id), label: c.title })),
    },
    {
      name: "state",
      label: t("certificates.issued.status"),
      any: t("contentLists.certificates.anyState"),
      options: CERTIFICATE_STATES.map((v) => ({ value: v, label: t(`contentLists.certificates.states.${v}`) })),
    },
    {
      name: "template",
      label: t("contentLists.certificates.template"),
      any: t("contentLists.certificates.anyTemplate"),
      options: choices.templates.map((tpl) => ({ value: String(tpl.id), label: tpl.name })),
    },
  ];
}

const BADGE: Record<CertificateState, string> = { valid: "badge published", expired: "badge", revoked: "badge danger" };

function IssuedRow({ certificate: c, locale, reply }: { certificate: IssuedCertificate; locale: string; reply?: FormReply }) {
  const { t } = useTranslation();
  return (
    <tr data-certificate={c.publicId} data-state={c.state}>
      <td>
        {c.learnerName}
        {c.email ? <div className="muted email">{c.email}</div> : null}
      </td>
      <td>{c.courseTitle}</td>
      <td className="nowrap">{formatDate(c.issuedAt, { locale })}</td>
      <td>
        <span className={BADGE[c.state]} title={c.state === "revoked" ? (c.revokedReason ?? "") : undefined}>
          {t(`contentLists.certificates.states.${c.state}`)}
        </span>{" "}
        <a href={c.verify} className="nowrap">
          {c.publicId}
        </a>
      </td>
      <td className="actions">
        {c.state === "revoked" ? (
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
  );
}

/** Revoking one certificate: a reason is required; its message shows beside this certificate only. */
function RevokeForm({ id, publicId, reply }: { id: number; publicId: string; reply?: FormReply }) {
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
