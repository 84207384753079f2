import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { EmptyState } from "~/components/empty-state";
import { listOwnCertificates } from "~/models/certificate.server";
import { verificationUrl } from "~/models/certificate-render.server";
import { certificateValidity } from "~/models/recertification.server";
import { validityNote } from "~/screens/recertification.server";
import { requireUser } from "~/kernel/auth.server";
import { formatDate } from "~/utils/dates";
import { requireOrganization } from "~/utils/tenant.server";
import certificateStyles from "~/styles/certificates.css";

/** docs/product.md §2 /profile/certificates: the learner's own certificates, each with its PDF and a share link. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  const auth = await requireUser(request, context);
  const origin = context.platform.originFor(organization);
  return {
    certificates: listOwnCertificates(db, auth.person.id).map((c) => ({
      id: c.id,
      publicId: c.publicId,
      courseId: c.courseId,
      courseTitle: c.courseTitle,
      issuedAt: c.issuedAt.toISOString(),
      score: c.score,
      revoked: Boolean(c.revokedAt),
      share: verificationUrl({ origin }, c.publicId),
      // Recertification (issue 34): valid until its expiry day, or expired; null when it never expires.
      validity: validityNote(c.expiresOn, certificateValidity(db, c).expired, context.viewer.language),
    })),
  };
}

export default function Certificates() {
  const { t, i18n } = useTranslation();
  const { certificates } = useLoaderData<typeof loader>();
  return (
    <section className="my-certificates">
      <h1>{t("profile.certificates")}</h1>
      {certificates.length === 0 ? (
        <EmptyState
          testId="certificates-empty"
          title={t("profile.noCertificates")}
          body={t("browse.empty.certificates")}
          to="/"
          action={t("browse.empty.certificatesAction")}
        />
      ) : (
        <ul className="certificate-cards" data-testid="my-certificates">
          {certificates.map((c) => (
            <li key={c.id} className="certificate-card" data-certificate={c.publicId}>
              <div className="certificate-card-head">
                <span className="certificate-seal" aria-hidden="true">
                  ★
                </span>
                <div>
                  <h2>{c.courseId ? <Link to={`/courses/${c.courseId}`}>{c.courseTitle}</Link> : c.courseTitle}</h2>
                  <p className="muted">
                    {t("certificates.learner.issuedOn", {
                      date: formatDate(c.issuedAt, { locale: i18n.language === "en" ? "en-GB" : undefined, dateStyle: "long" }),
                    })}
                    {c.score !== null ? ` · ${t("certificates.learner.score", { score: c.score })}` : ""}
                  </p>
                  {c.validity ? (
                    <p className={`certificate-validity ${c.validity.expired ? "expired" : "valid"}`} data-testid="certificate-validity">
                      {t(c.validity.expired ? "recertification.learner.expiredOn" : "recertification.learner.validUntil", {
                        date: c.validity.date,
                      })}
                    </p>
                  ) : null}
                </div>
                {c.revoked ? <span className="badge danger">{t("certificates.status.revoked")}</span> : null}
              </div>
              <div className="certificate-card-actions">
                <a href={`/profile/certificates/${c.id}`} className="button primary" data-testid={`download-${c.publicId}`}>
                  {t("certificates.learner.download")}
                </a>
                <a href={c.share}>{t("certificates.learner.verify")}</a>
              </div>
              <label className="share-field">
                <span>{t("certificates.learner.share")}</span>
                <input readOnly value={c.share} onFocus={(e) => e.currentTarget.select()} />
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
