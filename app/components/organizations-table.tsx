import { Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";

/** Organizations by name and address, each linking to its management screens (both areas use it). */
export function OrganizationsTable({
  organizations,
  base,
}: {
  organizations: Array<{ id: number; name: string; url: string }>;
  base: string;
}) {
  const { t } = useTranslation();
  return (
    <table className="table" data-testid="organizations">
      <thead>
        <tr>
          <th>{t("admin.name")}</th>
          <th>{t("admin.url")}</th>
        </tr>
      </thead>
      <tbody>
        {organizations.map((o) => (
          <tr key={o.id}>
            <td>
              <Link to={`${base}/${o.id}`}>{o.name}</Link>
            </td>
            <td>
              <a href={o.url}>{o.url}</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
