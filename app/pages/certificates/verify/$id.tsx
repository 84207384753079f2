import { json, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { getCertificateByPublicId } from "~/models/certificate.server";
import { certificateValidity } from "~/models/recertification.server";
import { validityNote } from "~/screens/recertification.server";
import { formatDate } from "~/utils/dates";
import { requireOrganization } from "~/utils/tenant.server";
import certificateStyles from "~/styles/certificates.css";

/**
 * The public verification page (no sign-in): the certificate's id, looked up only in the organization
 * of the host it is asked on, shows the learner's name, the course, the organization, the date and
 * whether it is valid or revoked — nothing else. An unknown id says so plainly (404).
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  const language = context.viewer?.language ?? organization.language;
  const certificate = getCertificateByPublicId(db, params.id ?? "");
  if (!certificate)
    return json(
      { found: false as const, id: (params.id ?? "").slice(0, 40), organization: organization.name },
      { status: 404, headers: { "X-Robots-Tag": "noindex", "Cache-Control": "no-store" } },
    );
  return json(
    {
      found: true as const,
      id: certificate.publicId,
      learnerName: certificate.learnerName,
      courseTitle: certificate.courseTitle,
      organization: organization.name,
      issuedAt: certificate.issuedAt.toISOString(),
      revoked: Boolean(certificate.revokedAt),
      revokedAt: certificate.revokedAt?.toISOString() ?? null,
      // Recertification (issue 34): valid until its expiry day, expired after it (the organization's days).
      validity: validityNote(certificate.expiresOn, certificateValidity(db, certificate).expired, language),
    },
    { headers: { "X-Robots-Tag": "noindex", "Cache-Control": "no-store" } },
  );
}

/** The page's own headers (its loader's): not indexed, and never kept, so a revocation shows at once. */
export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "X-Robots-Tag": loaderHeaders.get("X-Robots-Tag") ?? "noindex",
  "Cache-Control": "no-store",
});

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...matches.flatMap((m) => m.meta ?? []).filter((m) => !("title" in m)),
  { title: data ? `${data.id} · ${data.organization}` : "" },
  { name: "robots", content: "noindex" },
];

export default function VerifyCertificate() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const date = (iso: string) => formatDate(iso, { locale: i18n.language === "en" ? "en-GB" : undefined, dateStyle: "long" });
  const state = !data.found ? "missing" : data.revoked ? "revoked" : data.validity?.expired ? "expired" : "valid";
  return (
    <section className="verify-page">
      <div className={`verify-card is-${state}`} data-testid="verification" data-state={state}>
        {data.found ? (
          <>
            <p className={`verify-status ${state}`} role="status">
              {data.revoked
                ? t("certificates.verify.revoked")
                : data.validity
                  ? t(data.validity.expired ? "recertification.verify.expiredOn" : "recertification.verify.validUntil", {
                      date: data.validity.date,
                    })
                  : t("certificates.verify.valid")}
            </p>
            <h1>{data.learnerName}</h1>
            <dl className="verify-facts">
              <dt>{t("certificates.verify.course")}</dt>
              <dd>{data.courseTitle}</dd>
              <dt>{t("certificates.verify.organization")}</dt>
              <dd>{data.organization}</dd>
              <dt>{t("certificates.verify.date")}</dt>
              <dd>{date(data.issuedAt)}</dd>
              {data.revokedAt ? (
                <>
                  <dt>{t("certificates.verify.revokedOn")}</dt>
                  <dd>{date(data.revokedAt)}</dd>
                </>
              ) : null}
              <dt>{t("certificates.verify.id")}</dt>
              <dd>
                <code>{data.id}</code>
              </dd>
            </dl>
          </>
        ) : (
          <>
            <p className="verify-status missing" role="status">
              {t("certificates.verify.missing")}
            </p>
            <p>{t("certificates.verify.missingHelp", { organization: data.organization })}</p>
          </>
        )}
      </div>
      <Form method="get" action="/certificates/verify" className="subform verify-lookup">
        <label htmlFor="verify-id">{t("certificates.verify.lookup")}</label>
        <input id="verify-id" name="id" placeholder="XXXX-XXXX-XXXX" maxLength={20} required />
        <button type="submit">{t("certificates.verify.check")}</button>
      </Form>
    </section>
  );
}

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
