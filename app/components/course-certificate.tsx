import { useTranslation } from "~/utils/translate";

/** A completed course's certificate on its page: download and the public verification address. */
export function CourseCertificate({ certificate }: { certificate: { id: number; publicId: string; revoked: boolean } | null }) {
  const { t } = useTranslation();
  if (!certificate) return null;
  return (
    <section className="panel course-certificate" data-testid="course-certificate">
      <h2>{t("certificates.learner.yourCertificate")}</h2>
      {certificate.revoked ? <p className="badge danger">{t("certificates.status.revoked")}</p> : null}
      <p>
        <a href={`/profile/certificates/${certificate.id}`} className="button primary">
          {t("certificates.learner.download")}
        </a>{" "}
        <a href={`/certificates/verify/${certificate.publicId}`}>{t("certificates.learner.verify")}</a>
      </p>
    </section>
  );
}
