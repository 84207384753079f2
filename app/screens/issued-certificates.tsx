import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { controlProps, ErrorList, useZodForm } from "~/components/form";
import { revokeSchema } from "~/models/forms/certificates";
import { formatDate } from "~/utils/dates";

/** One certificate issued by the organization, as the list shows it. */
export interface IssuedCertificate {
  id: number;
  publicId: string;
  learnerName: string;
  courseTitle: string;
  issuedAt: string;
  revoked: boolean;
  revokedReason: string | null;
  /** Its public verification page. */
  verify: string;
}

/** The page's reply to a form: which one answered (`revoke-<id>` for a certificate's), and conform's reply. */
type FormReply = { form: string; result: SubmissionResult<string[]> };

/**
 * The organization's issued certificates (docs/product.md §2 certificate-templates): a search, pages of 25,
 * each valid or revoked (with the reason), its verification link, and revoking or restoring it.
 */
export function IssuedCertificates({
  q,
  page,
  pages,
  certificates,
  reply,
}: {
  q: string;
  page: number;
  pages: number;
  certificates: IssuedCertificate[];
  reply?: FormReply;
}) {
  const { t } = useTranslation();
  return (
    <>
      <h2 id="issued">{t("certificates.issued.title")}</h2>
      <Form method="get" className="subform" action="#issued">
        <label>
          <span className="visually-hidden">{t("certificates.issued.search")}</span>
          <input type="search" name="q" defaultValue={q} placeholder={t("certificates.issued.search")} maxLength={200} />
        </label>{" "}
        <button type="submit">{t("certificates.issued.searchButton")}</button>
      </Form>
      {certificates.length === 0 ? (
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
            {certificates.map((c) => (
              <IssuedRow key={c.id} certificate={c} reply={reply} />
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 ? (
        <nav className="pagination" aria-label={t("certificates.issued.title")}>
          {page > 1 ? <Link to={`?${new URLSearchParams({ q, page: String(page - 1) })}#issued`}>←</Link> : null}
          <span>
            {page} / {pages}
          </span>
          {page < pages ? <Link to={`?${new URLSearchParams({ q, page: String(page + 1) })}#issued`}>→</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

function IssuedRow({ certificate: c, reply }: { certificate: IssuedCertificate; reply?: FormReply }) {
  const { t, i18n } = useTranslation();
  return (
    <tr data-certificate={c.publicId}>
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
