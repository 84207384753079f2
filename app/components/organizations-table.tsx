import { Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { formatDate } from "~/utils/dates";
import { LANGUAGE_NAMES, isLanguage } from "~/utils/i18n";
import { formatNumber } from "~/utils/numbers";

/** What the super-admin's list shows of an organization beside its name and address (issue 50). */
export interface OrganizationDetails {
  language: string;
  twoFactor: boolean;
  createdAt: string;
  /** As the platform keeps them (organization_summaries); null while not gathered yet. */
  people: number | null;
  courses: number | null;
}

/**
 * Organizations by name and address, each linking to its management screens (both areas use it); with their
 * details (language, sign-in code, people, courses, when made) where the list has them.
 */
export function OrganizationsTable({
  organizations,
  base,
  locale,
}: {
  organizations: Array<{ id: number; name: string; url: string; details?: OrganizationDetails }>;
  base: string;
  locale?: string;
}) {
  const { t } = useTranslation();
  const details = organizations.some((o) => o.details);
  const count = (n: number | null) => (n === null ? t("platformLists.organizations.notCounted") : formatNumber(n, locale ?? "en"));
  return (
    <div className="table-scroll">
      <table className="table" data-testid="organizations">
        <thead>
          <tr>
            <th>{t("admin.name")}</th>
            <th>{t("admin.url")}</th>
            {details ? (
              <>
                <th>{t("admin.language")}</th>
                <th>{t("platformLists.organizations.twoFactor")}</th>
                <th>{t("platformLists.organizations.sorts.people")}</th>
                <th>{t("platformLists.organizations.sorts.courses")}</th>
                <th>{t("platformLists.organizations.sorts.created")}</th>
              </>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {organizations.map((o) => (
            <tr key={o.id} data-organization={o.name}>
              <td>
                <Link to={`${base}/${o.id}`}>{o.name}</Link>
              </td>
              <td>
                <a href={o.url}>{o.url}</a>
              </td>
              {o.details ? (
                <>
                  <td>{isLanguage(o.details.language) ? LANGUAGE_NAMES[o.details.language] : o.details.language}</td>
                  <td>{t(`platformLists.organizations.twoFactors.${o.details.twoFactor ? "required" : "optional"}`)}</td>
                  <td data-people={o.details.people ?? ""}>{count(o.details.people)}</td>
                  <td>{count(o.details.courses)}</td>
                  <td>{formatDate(o.details.createdAt, { locale })}</td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
